import Long from 'long';
import protobuf from 'protobufjs/light.js';
import { OTLP_DESCRIPTOR } from './otlp-descriptor.js';

/**
 * OTLP protobuf with protobufjs and the OpenTelemetry project's own message
 * definitions (the pinned npm package's .proto files, compiled into the generated
 * otlp-descriptor.ts by scripts/otlp-descriptor.mjs). Decoded
 * requests come out in the OTLP JSON mapping the file exporter writes:
 * lowerCamelCase names, 64-bit integers as decimal strings, enums as numbers,
 * bytes as base64 (trace and span ids are turned into hex by otlp-request.ts).
 */
interface OtlpTypes {
  readonly request: protobuf.Type;
  readonly response: protobuf.Type;
  readonly status: protobuf.Type;
}

let types: OtlpTypes | undefined;

/**
 * The message types, built on first use: a CLI run that reads no protobuf (most of them)
 * does not pay for building the descriptor's types at start.
 */
function otlp(): OtlpTypes {
  if (types === undefined) {
    protobuf.util.Long = Long;
    protobuf.configure();
    const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR);
    types = {
      request: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
      response: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
      status: root.lookupType('google.rpc.Status'),
    };
  }
  return types;
}

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: String, defaults: false, arrays: false, objects: false, oneofs: false };

/** The request as plain OTLP JSON data; throws (a protobufjs or RangeError) on bytes that are not one. */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  const { request } = otlp();
  return request.toObject(request.decode(bytes), TO_OBJECT);
}

/** ExportTraceServiceResponse: empty when every span was taken, else partial_success. */
export function encodeTraceResponse(rejectedSpans: number, errorMessage: string): Uint8Array {
  const body = rejectedSpans > 0 || errorMessage !== '' ? { partialSuccess: { rejectedSpans: Long.fromNumber(rejectedSpans), errorMessage } } : {};
  const { response } = otlp();
  return response.encode(response.fromObject(body)).finish();
}

/** google.rpc.Status, the body of every OTLP/HTTP error response. */
export function encodeStatus(code: number, message: string): Uint8Array {
  const { status } = otlp();
  return status.encode(status.fromObject({ code, message })).finish();
}

/** Test support: a request from OTLP JSON data (the receiver itself never encodes requests). */
export function encodeTraceRequest(data: Record<string, unknown>): Uint8Array {
  const { request } = otlp();
  return request.encode(request.fromObject(data)).finish();
}
