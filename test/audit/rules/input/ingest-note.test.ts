import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../../src/config/config.js';
import { tempTree } from '../../../helpers.js';

// The note is emitted by format parsers (OpenTelemetry pairing by order). This test
// checks the engine turns a parser's ingest-note diagnostic into a finding with
// the configured severity and that `off` silences it.
describe('ingest-note', () => {
  it('is a note by default and can be turned off', async () => {
    const { FORMATS } = await import('../../../../src/ingest/registry.js');
    const probe = {
      id: 'probe',
      description: 'test format',
      detect: () => 0,
      async parse(_input: unknown, sink: { diagnostic: (d: object) => void }) {
        sink.diagnostic({ ruleId: 'ingest-note', line: 3, message: 'paired by order' });
      },
    };
    (FORMATS as unknown as object[]).push(probe);
    try {
      const root = tempTree({ 'x.probe': '' });
      const input = [{ path: `${root}/x.probe`, display: 'x.probe' }];
      const on = materialize(await runAudit(input, resolveConfig(), { inputFormat: 'probe' }));
      expect(on.findings.map((f) => [f.ruleId, f.severity, f.line, f.message])).toEqual([['ingest-note', 'note', 3, 'paired by order']]);
      const off = materialize(await runAudit(input, resolveConfig({ rules: { 'ingest-note': 'off' } }), { inputFormat: 'probe' }));
      expect(off.findings).toEqual([]);
    } finally {
      (FORMATS as unknown as object[]).pop();
    }
  });
});

describe('ingest-note for calls and results paired by order', () => {
  it('one note per run at its first id-less call; calls with ids, and one-span pairs, need none', async () => {
    const { auditFiles, findingsOf, jsonl } = await import('../../../helpers.js');
    const audit = await auditFiles({
      't.jsonl': jsonl(
        { run_id: 'a', kind: 'tool_call', tool: 'ls' },
        { run_id: 'a', kind: 'tool_result', tool: 'ls' },
        { run_id: 'a', kind: 'tool_call', tool: 'cat' },
        { run_id: 'a', kind: 'tool_result', tool: 'cat' },
        { run_id: 'b', kind: 'tool_call', call_id: 'c1', tool: 'ls' },
        { run_id: 'b', kind: 'tool_result', call_id: 'c1', tool: 'ls' },
      ),
    });
    expect(findingsOf(audit, 'ingest-note')).toEqual([
      { line: 1, callId: null, tool: null, runId: 'a', message: '2 calls without a call id paired with their results by order (the next id-less result of the same tool)' },
    ]);
    expect(findingsOf(audit, 'orphan-call')).toEqual([]);
  });
});
