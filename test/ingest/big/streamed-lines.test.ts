import { describe, expect, it } from 'vitest';
import { auditBig } from './big-files.js';

/**
 * JSON-lines forms of OTLP and OpenAI stream: a trace or conversation is released
 * once it is idle (limits.run-idle-records), so peak memory does not follow the file.
 * Measured on a loaded 2-core machine at 100 MB: OTLP JSONL 309 MiB before, 180 MiB
 * after; OpenAI JSONL 499 MiB before (the file was read whole first), 173 MiB after.
 * A whole-file read of 120 MB costs more than the bound by itself (bytes plus string).
 */
const BOUND_MIB = 250;

describe('big JSON-lines files in flat memory (bundled CLI)', () => {
  it('OTLP JSONL (collector file exporter, traces interleaved over batch lines): exact counts, peak RSS bounded', () => {
    const { truth, report, peakMiB } = auditBig('otlp-lines', 120);
    expect(truth.runs).toBeGreaterThan(3_900);
    expect(report.files).toEqual([{ path: 'big-otlp-lines.json', format: 'otlp-json', records: expect.any(Number), runs: truth.runs, skipped: [], toolCalls: truth.calls, toolResults: truth.results }]);
    expect(peakMiB).toBeLessThan(BOUND_MIB);
  }, 300_000);

  it('OpenAI JSONL (one conversation per line): never read whole, exact counts, peak RSS bounded', () => {
    const { truth, report, peakMiB } = auditBig('openai-lines', 120);
    expect(truth.runs).toBeGreaterThan(7_000);
    expect(report.files).toEqual([{ path: 'big-openai-lines.json', format: 'openai', records: expect.any(Number), runs: truth.runs, skipped: [], toolCalls: truth.calls, toolResults: truth.results }]);
    expect(peakMiB).toBeLessThan(BOUND_MIB);
  }, 300_000);
});
