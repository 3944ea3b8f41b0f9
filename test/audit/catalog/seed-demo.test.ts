import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditFiles } from '../../helpers.js';

const RUN = '0b4f5c2e-8a61-4d0f-9a3c-2f7e1d6b9c41';

describe("the seed article's catalog_trace.py demo", () => {
  it('finds exactly the three planted flag groups, plus the unstructured error text the unknown tool returned', async () => {
    const result = await auditFiles({ 'catalog_trace.jsonl': readFileSync('test/fixtures/catalog/seed-catalog-trace.jsonl', 'utf8') });
    expect(result.findings.map(({ ruleId, severity, line, callId, tool }) => ({ ruleId, severity, line, callId, tool }))).toEqual([
      { ruleId: 'unused-tool', severity: 'note', line: 1, callId: null, tool: 'grep' },
      { ruleId: 'unused-tool', severity: 'note', line: 1, callId: null, tool: 'read_file' },
      { ruleId: 'unknown-tool', severity: 'error', line: 2, callId: 'call_run_tests_1', tool: 'run_tests' },
      { ruleId: 'unstructured-error', severity: 'warning', line: 3, callId: 'call_run_tests_1', tool: 'run_tests' },
      { ruleId: 'unmatched-result', severity: 'error', line: 6, callId: 'call_missing_9', tool: 'read_file' },
    ]);
    // The recorded hash is CPython's and matches the Python form; the summary keeps it.
    expect(result.runs).toEqual([
      { file: 'catalog_trace.jsonl', runId: RUN, format: 'native-jsonl', catalogSha256: 'ac5bb72668277d083e9f295d58038aebbcf0feebb4ec0442c7888964f4384eeb', toolCalls: 2, toolResults: 3 },
    ]);
  });
});
