import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { otlpDescriptorSource } from '../../scripts/otlp-descriptor.mjs';
import { decodeTraceRequest, encodeTraceResponse } from '../../src/receiver/otlp-protobuf.js';
import { sdkTracer } from '../ingest/otel/sdk-export.js';

describe('otlp-descriptor.ts: generated from the pinned npm package, never committed', () => {
  it('is what scripts/otlp-descriptor.mjs makes of the package the lock file pins', () => {
    const source = (otlpDescriptorSource as () => string)();
    expect(readFileSync('src/receiver/otlp-descriptor.ts', 'utf8')).toBe(source);
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version: string; license?: string }> };
    const pinned = lock.packages['node_modules/@opentelemetry/otlp-grpc-exporter-base']!;
    expect(pinned.license).toBe('Apache-2.0');
    expect(source.split('\n')[0]).toContain(`@opentelemetry/otlp-grpc-exporter-base@${pinned.version}`);
  });

  it('is not tracked, and no .proto file is', () => {
    const tracked = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n');
    expect(tracked).not.toContain('src/receiver/otlp-descriptor.ts');
    expect(tracked.filter((path) => path.endsWith('.proto'))).toEqual([]);
  });

  it('decodes what the OpenTelemetry JS SDK sends, scope attributes and span flags included', () => {
    const { exporter, start } = sdkTracer();
    // Epoch milliseconds: the SDK reads a time below its clock's now() as relative to the process's start.
    const span = start('execute_tool get_weather', 1_700_000_000_000, { 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.call.id': 'call_1' });
    span.end(1_700_000_000_250);
    const bytes = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!;
    const request = decodeTraceRequest(bytes) as {
      resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string; version: string }; spans: Array<Record<string, unknown>> }> }>;
    };
    const scopeSpans = request.resourceSpans[0]!.scopeSpans[0]!;
    expect(scopeSpans.scope).toMatchObject({ name: 'agent-under-test', version: '1.0.0' });
    const decoded = scopeSpans.spans[0]!;
    expect(decoded.name).toBe('execute_tool get_weather');
    expect(decoded.startTimeUnixNano).toBe('1700000000000000000');
    expect(decoded.endTimeUnixNano).toBe('1700000000250000000');
    // The SDK writes the trace flags into Span.flags (field 16), which the package's copy lacks.
    expect(decoded.flags).toBe(257);
    expect((decoded.attributes as Array<{ key: string }>).map((a) => a.key)).toEqual(['gen_ai.tool.name', 'gen_ai.tool.call.id']);
  });

  it('answers partial success with the field number the protocol gives it', () => {
    // ExportTraceServiceResponse { partial_success (1) { rejected_spans (1) = 3, error_message (2) = "x" } }
    expect(Buffer.from(encodeTraceResponse(3, 'x')).toString('hex')).toBe('0a0508031201' + '78');
  });
});
