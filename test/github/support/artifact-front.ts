import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { zipSync } from 'fflate';
import { CONTAINER, type Azurite } from '../artifacts/azurite.js';
import type { FakeArtifact, FakeGitHub } from '../fake-github.js';
import { startLoopback } from './loopback.js';

const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/';
/** The backend ids in run-action.ts's runtime token. */
const RUN_BACKEND_ID = '11111111-2222-3333-4444-555555555555';
const JOB_BACKEND_ID = '66666666-7777-8888-9999-000000000000';

export interface SeedOptions {
  /** Record this digest instead of the zip's (a corrupt download). */
  readonly digest?: string;
  readonly expired?: boolean;
  /** Files given by their bytes (not a path to copy), e.g. a crafted zip bomb's content. */
  readonly bytes?: Record<string, Uint8Array>;
}

/**
 * A loopback server in front of FakeGitHub that adds what reading artifacts
 * needs: the artifact service's Twirp ListArtifacts and GetSignedArtifactURL
 * (this run's artifacts, blobs in Azurite) and REST GET /actions/runs/{id}
 * (whether a run came from a fork). Everything else is passed to FakeGitHub,
 * so uploads, comments and REST artifact listing behave as there.
 */
export class ArtifactFront {
  /** Runs answered by GET /repos/{owner}/{repo}/actions/runs/{id}: the head repository's full name. */
  readonly runHeads = new Map<number, string>();
  /** The Twirp methods this server answered, in order. */
  readonly twirpCalls: string[] = [];
  private stopServer: () => Promise<void> = async () => {};
  private nextId = 5000;
  url = '';

  constructor(
    private readonly gh: FakeGitHub,
    private readonly azurite: Azurite,
  ) {}

  async start(): Promise<void> {
    const loopback = await startLoopback((req, res) => void this.handle(req, res));
    this.url = loopback.url;
    this.stopServer = loopback.stop;
  }

  async stop(): Promise<void> {
    await this.stopServer();
  }

  /** An artifact uploaded by "another job" of run `runId`: a real zip in Azurite, listed with its digest. */
  async seed(runId: number, name: string, files: Record<string, string>, options: SeedOptions = {}): Promise<FakeArtifact> {
    const entries = { ...Object.fromEntries(Object.entries(files).map(([path, from]) => [path, readFileSync(from) as Uint8Array])), ...options.bytes };
    const zip = Buffer.from(zipSync(entries, { level: 9 }));
    const blob = `seeded/${runId}/${name}.zip`;
    await this.azurite.service().getContainerClient(CONTAINER).getBlockBlobClient(blob).uploadData(zip);
    const digest = options.digest ?? `sha256:${createHash('sha256').update(zip).digest('hex')}`;
    const artifact: FakeArtifact = { id: ++this.nextId, name, runId, blob, digest, size: zip.length, expired: options.expired ?? false };
    this.gh.artifacts.push(artifact);
    return artifact;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.url);
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (url.pathname.startsWith(TWIRP)) this.twirpCalls.push(url.pathname.slice(TWIRP.length));
    if (url.pathname === `${TWIRP}ListArtifacts`) {
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      const id = wrapped(body['idFilter'] ?? body['id_filter']);
      const name = wrapped(body['nameFilter'] ?? body['name_filter']);
      const listed = this.currentArtifacts().filter((a) => (id === undefined || String(a.id) === id) && (name === undefined || a.name === name));
      return send(200, { artifacts: listed.map((a) => monolith(a)) });
    }
    if (url.pathname === `${TWIRP}GetSignedArtifactURL`) {
      const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      const artifact = this.currentArtifacts().find((a) => a.name === body['name']);
      if (!artifact) return send(404, { code: 'not_found', msg: 'no such artifact' });
      return send(200, { signedUrl: this.azurite.signedUrl(artifact.blob, 'r') });
    }
    const run = new RegExp(`^/repos/${this.gh.owner}/${this.gh.repo}/actions/runs/(\\d+)$`).exec(url.pathname);
    if (run && req.method === 'GET') {
      const head = this.runHeads.get(Number(run[1]));
      if (head === undefined) return send(404, { message: 'Not Found' });
      return send(200, { id: Number(run[1]), repository: { full_name: `${this.gh.owner}/${this.gh.repo}` }, head_repository: { full_name: head } });
    }
    await this.forward(req, res, url, raw);
  }

  /** This run's finalized, unexpired artifacts, as the artifact service lists them. */
  private currentArtifacts(): FakeArtifact[] {
    return this.gh.artifacts.filter((a) => a.runId === this.gh.currentRunId && a.id !== 0 && !a.expired);
  }

  private async forward(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method ?? 'GET';
    const answer = await fetch(`${this.gh.url}${url.pathname}${url.search}`, {
      method,
      headers,
      redirect: 'manual',
      ...(body.length > 0 && method !== 'GET' ? { body: new Uint8Array(body) } : {}),
    });
    const out: Record<string, string> = {};
    for (const name of ['content-type', 'link', 'location', 'retry-after', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      const value = answer.headers.get(name);
      if (value !== null) out[name] = value.replaceAll(this.gh.url, this.url);
    }
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  }
}

/** A protobuf wrapper value in JSON form: the bare value, or `{ value }`. */
function wrapped(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return wrapped((value as { value?: unknown }).value);
  return String(value);
}

function monolith(a: FakeArtifact) {
  return {
    workflowRunBackendId: RUN_BACKEND_ID,
    workflowJobRunBackendId: JOB_BACKEND_ID,
    databaseId: String(a.id),
    name: a.name,
    size: String(a.size),
    createdAt: '2026-11-29T12:00:00Z',
    digest: a.digest,
  };
}
