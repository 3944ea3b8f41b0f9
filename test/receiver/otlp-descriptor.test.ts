import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { otlpDescriptorSource } from '../../scripts/otlp-descriptor.mjs';

describe('otlp-descriptor.ts', () => {
  it('is what scripts/otlp-descriptor.mjs makes of the vendored opentelemetry-proto files (run it after changing them)', () => {
    expect(readFileSync('src/receiver/otlp-descriptor.ts', 'utf8')).toBe((otlpDescriptorSource as () => string)());
  });

  it('the vendored .proto files are the upstream ones, with their license', () => {
    const trace = readFileSync('src/receiver/proto/opentelemetry/proto/trace/v1/trace.proto', 'utf8');
    expect(trace).toContain('package opentelemetry.proto.trace.v1;');
    expect(trace).toContain('bytes trace_id = 1;');
    expect(readFileSync('src/receiver/proto/LICENSE', 'utf8')).toContain('Apache License');
  });
});
