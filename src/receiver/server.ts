import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UserError } from '../errors.js';
import { BodyBudget, BodyError, readBody } from './http-body.js';
import { MalformedRequestError, spoolBatch, type IdSpelling } from './otlp-request.js';
import { BODIES_HELD, REQUEST_TURNS, Turns } from './request-turns.js';
import { countJsonSpans, countProtobufSpans } from './span-count.js';
import { Spool } from './spool.js';
import { MAX_CONNECTIONS, type ReceiverStats } from './stats.js';

type OtlpCodec = typeof import('./otlp-protobuf.js');

export const DEFAULT_OTLP_PORT = 4318;
/** The receiver listens on the loopback interface only: a CI job's own processes are its only clients. */
export const RECEIVER_HOST = '127.0.0.1';

export interface ReceiverOptions {
  /** 0 picks a free port. */
  readonly port: number;
  readonly spoolPath: string;
  /** Largest request body, as sent and as inflated. */
  readonly maxRequestBytes: number;
  /** Largest spool; a request that does not fit is refused whole (507), never half-taken. */
  readonly maxSpoolBytes: number;
  /** Longest span kept; longer ones are rejected through partial success. */
  readonly maxSpanBytes: number;
  /** Most spans in one request, counted from its bytes before it is decoded: past it the request is refused whole (413). */
  readonly maxSpansPerRequest?: number;
  /** Connections held open at once (default MAX_CONNECTIONS); a connection past it is dropped and counted. */
  readonly maxConnections?: number;
  /** How long stop() waits for requests in flight before it closes their connections (default 10 s). */
  readonly stopGraceMs?: number;
  /** Told of every refused request and rejected span (one line each, sanitized by the caller's logger). */
  readonly onProblem?: (message: string) => void;
}

export const DEFAULT_RECEIVER_LIMITS = {
  maxRequestBytes: 16 * 1024 * 1024,
  maxSpoolBytes: 1024 * 1024 * 1024,
  maxSpanBytes: 4 * 1024 * 1024,
  maxSpansPerRequest: 50_000,
} as const;

export interface Receiver {
  readonly port: number;
  /** http://127.0.0.1:<port>, the OTEL_EXPORTER_OTLP_ENDPOINT for the suite. */
  readonly endpoint: string;
  readonly spoolPath: string;
  readonly stats: Readonly<ReceiverStats>;
  /** Stops taking requests, finishes those in flight, syncs and closes the spool. */
  stop(): Promise<Readonly<ReceiverStats>>;
}

/** How long stop() waits for requests in flight before it closes their connections. */
const STOP_GRACE_MS = 10_000;

/** gRPC status codes carried in google.rpc.Status. */
const RPC = { invalidArgument: 3, notFound: 5, resourceExhausted: 8, unimplemented: 12 } as const;

/** Starts an OTLP/HTTP trace receiver on 127.0.0.1 writing OTLP JSON lines to `spoolPath`. */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  // protobufjs and the OTLP descriptor are loaded by the receiver only, not at every start of the CLI
  // (webpackMode eager: the bundle keeps it in the one file, evaluated here; see scripts/build.mjs).
  const codec = await import(/* webpackMode: "eager" */ './otlp-protobuf.js');
  const spool = await Spool.create(options.spoolPath, options.maxSpoolBytes);
  const stats: ReceiverStats = { requests: 0, acceptedSpans: 0, rejectedSpans: 0, refusedRequests: 0, refusedSpans: 0, droppedConnections: 0, spoolBytes: 0 };
  const problem = (message: string) => options.onProblem?.(message);
  const turns = new Turns(REQUEST_TURNS);
  const bodies = new BodyBudget(BODIES_HELD * options.maxRequestBytes);

  const handle = (req: IncomingMessage, res: ServerResponse) => handleRequest(req, res, { options, spool, stats, problem, codec, turns, bodies });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A write to the spool failed: the request is not acknowledged, the client may retry.
      stats.refusedRequests += 1;
      problem(`could not keep a request: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      if (!res.headersSent) send(res, 503, 'json', JSON.stringify({ code: 14, message: 'the receiver could not write its spool' }));
      else res.destroy();
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  const maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  server.maxConnections = maxConnections;
  server.on('drop', () => {
    stats.droppedConnections += 1;
    // One line for the first drop and then one per 100: a flood of connections is not a flood of lines.
    if (stats.droppedConnections % 100 === 1) problem(`dropped a connection: ${maxConnections} connections are open (${stats.droppedConnections} dropped so far); its exporter sees a reset and may retry`);
  });
  await listen(server, options.port, spool);
  const port = (server.address() as AddressInfo).port;
  let stopping: Promise<Readonly<ReceiverStats>> | undefined;
  // Once stopping, every answer closes its connection, so no keep-alive socket holds the close open.
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping) res.setHeader('Connection', 'close');
    res.on('finish', () => {
      if (stopping) server.closeIdleConnections();
    });
  });
  return {
    port,
    endpoint: `http://${RECEIVER_HOST}:${port}`,
    spoolPath: options.spoolPath,
    stats,
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // A client that never finishes its request is cut off (it was never acknowledged).
        const cutOff = setTimeout(() => server.closeAllConnections(), options.stopGraceMs ?? STOP_GRACE_MS);
        await closed;
        clearTimeout(cutOff);
        await spool.close();
        stats.spoolBytes = spool.bytes;
        return stats;
      })()),
  };
}

function send(res: ServerResponse, status: number, kind: 'protobuf' | 'json', body: Uint8Array | string): void {
  res.writeHead(status, { 'Content-Type': kind === 'protobuf' ? 'application/x-protobuf' : 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** What a request is handled with: the options, the spool, the counters and where problems go. */
interface RequestContext {
  readonly options: ReceiverOptions;
  readonly spool: Spool;
  readonly stats: ReceiverStats;
  readonly problem: (message: string) => void;
  /** The OTLP protobuf messages (src/receiver/otlp-protobuf.ts). */
  readonly codec: OtlpCodec;
  /** Whose turn it is to decode and spool (the memory of decoding is that of one request at a time). */
  readonly turns: Turns;
  /** The bytes of bodies held at once. */
  readonly bodies: BodyBudget;
}

/**
 * One request: checked, then in its turn read, counted, decoded, spooled and answered
 * (OTLP/HTTP status and body). Its spans count only once they are in the spool and the
 * client is still there to be told so: a refused request, or one whose client has gone
 * (an exporter that timed out retries it), adds none.
 */
async function handleRequest(req: IncomingMessage, res: ServerResponse, at: RequestContext): Promise<void> {
  const { stats, problem, codec, turns } = at;
  stats.requests += 1;
  const path = (req.url ?? '').split('?')[0];
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const kind: 'protobuf' | 'json' = mediaType === 'application/x-protobuf' ? 'protobuf' : 'json';
  const fail = (status: number, code: number, message: string, spans = 0) => {
    stats.refusedRequests += 1;
    stats.refusedSpans += spans;
    problem(`refused a request to ${path}: ${status} ${message}`);
    send(res, status, kind, kind === 'protobuf' ? codec.encodeStatus(code, message) : JSON.stringify({ code, message }));
  };
  if (path !== '/v1/traces') return fail(404, RPC.notFound, `no such path; traces go to POST /v1/traces`);
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return fail(405, RPC.unimplemented, `${req.method ?? '?'} is not allowed; traces go to POST /v1/traces`);
  }
  if (mediaType !== 'application/x-protobuf' && mediaType !== 'application/json') {
    return fail(415, RPC.invalidArgument, `Content-Type ${JSON.stringify(mediaType.slice(0, 60))} is not supported (application/x-protobuf or application/json)`);
  }
  let read: { body: Buffer; release: () => void };
  try {
    read = await readBody(req, at.options.maxRequestBytes, at.bodies);
  } catch (error) {
    if (error instanceof BodyError) {
      res.setHeader('Connection', 'close');
      return fail(error.status, error.status === 413 ? RPC.resourceExhausted : RPC.invalidArgument, error.message);
    }
    throw error;
  }
  await turns.take();
  try {
    await decodeAndKeep(read.body, req, res, at, kind, fail);
  } finally {
    turns.give();
    read.release();
  }
}

/** The body's spans counted against the cap, then decoded and spooled, and the answer sent. */
async function decodeAndKeep(body: Buffer, req: IncomingMessage, res: ServerResponse, at: RequestContext, kind: 'protobuf' | 'json', fail: (status: number, code: number, message: string, spans?: number) => void): Promise<void> {
  const { options, spool, stats, problem, codec } = at;
  const maxSpans = options.maxSpansPerRequest ?? DEFAULT_RECEIVER_LIMITS.maxSpansPerRequest;
  const text = kind === 'json' ? body.toString('utf8') : '';
  const counted = kind === 'protobuf' ? countProtobufSpans(body, maxSpans) : countJsonSpans(text, maxSpans);
  if (counted.over) {
    res.setHeader('Connection', 'close');
    return fail(413, RPC.resourceExhausted, `the request holds more than ${maxSpans} spans, the most the receiver takes in one request; send smaller batches`);
  }
  let data: unknown;
  try {
    data = kind === 'protobuf' ? codec.decodeTraceRequest(body) : JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'unreadable';
    return fail(400, RPC.invalidArgument, `the body is not a valid ${kind === 'protobuf' ? 'protobuf' : 'JSON'} ExportTraceServiceRequest: ${detail}`);
  }
  let batch;
  try {
    batch = spoolBatch(data, kind === 'protobuf' ? ('base64' satisfies IdSpelling) : 'hex', options.maxSpanBytes);
  } catch (error) {
    if (error instanceof MalformedRequestError || error instanceof RangeError) return fail(400, RPC.invalidArgument, `the body is not an ExportTraceServiceRequest: ${error.message.slice(0, 200)}`);
    throw error;
  }
  if (res.destroyed || req.socket.destroyed) {
    stats.refusedRequests += 1;
    stats.refusedSpans += batch.acceptedSpans;
    problem(`a client closed its connection before its request was answered; its ${batch.acceptedSpans} span(s) were not kept (its exporter retries them)`);
    return;
  }
  if (!spool.reserve(batch.bytes)) {
    return fail(507, RPC.resourceExhausted, `the spool is full (${options.maxSpoolBytes} bytes); ${batch.acceptedSpans} span(s) of this request were not kept`, batch.acceptedSpans);
  }
  if (batch.lines.length > 0) await spool.append(batch.lines);
  stats.acceptedSpans += batch.acceptedSpans;
  stats.rejectedSpans += batch.rejectedSpans;
  stats.spoolBytes = spool.bytes;
  if (batch.rejectedSpans > 0) problem(`rejected ${batch.rejectMessage}`);
  const answer = kind === 'protobuf' ? codec.encodeTraceResponse(batch.rejectedSpans, batch.rejectMessage) : JSON.stringify(batch.rejectedSpans > 0 ? { partialSuccess: { rejectedSpans: String(batch.rejectedSpans), errorMessage: batch.rejectMessage } } : {});
  send(res, 200, kind, answer);
}

/** Listens on RECEIVER_HOST:`port`; a port in use or refused is a user error (the spool is closed then). */
async function listen(server: Server, port: number, spool: Spool): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, RECEIVER_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await spool.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UserError('receiver-port-in-use', `port ${port} on ${RECEIVER_HOST} is in use; stop what holds it or pass --port <another>`);
    if (code === 'EACCES') throw new UserError('receiver-port-refused', `port ${port} on ${RECEIVER_HOST} may not be opened by this user; pass --port 1024 or above`);
    throw error;
  }
}
