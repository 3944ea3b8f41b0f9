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
protobuf.util.Long = Long;
protobuf.configure();

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR);
const REQUEST = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const RESPONSE = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
const STATUS = root.lookupType('google.rpc.Status');

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: Number, bytes: String, defaults: false, arrays: false, objects: false, oneofs: false };

/** The request as plain OTLP JSON data; throws (a protobufjs or RangeError) on bytes that are not one. */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  return REQUEST.toObject(REQUEST.decode(bytes), TO_OBJECT);
}

/** ExportTraceServiceResponse: empty when every span was taken, else partial_success. */
export function encodeTraceResponse(rejectedSpans: number, errorMessage: string): Uint8Array {
  const body = rejectedSpans > 0 || errorMessage !== '' ? { partialSuccess: { rejectedSpans: Long.fromNumber(rejectedSpans), errorMessage } } : {};
  return RESPONSE.encode(RESPONSE.fromObject(body)).finish();
}

/** google.rpc.Status, the body of every OTLP/HTTP error response. */
export function encodeStatus(code: number, message: string): Uint8Array {
  return STATUS.encode(STATUS.fromObject({ code, message })).finish();
}

/** Test support: a request from OTLP JSON data (the receiver itself never encodes requests). */
export function encodeTraceRequest(data: Record<string, unknown>): Uint8Array {
  return REQUEST.encode(REQUEST.fromObject(data)).finish();
}
