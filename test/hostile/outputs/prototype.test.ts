import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { auditJson, brief, runInProcess } from '../audit-cli.js';

const FIX = 'test/hostile/fixtures';

/** Everything a pollution would change: own names of the prototypes data-keyed code could reach. */
function prototypeState() {
  return [Object.prototype, Array.prototype, Function.prototype, Map.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join(','));
}

describe('prototype keys in trace data', () => {
  it('tool names constructor, toString, __proto__, valueOf are each counted once; run id and call id __proto__ are plain ids', async () => {
    const before = prototypeState();
    const run = await auditJson([`${FIX}/prototype-names.jsonl`]);
    expect(run.code).toBe(1);
    expect(run.report.summary).toMatchObject({ runs: 2, toolCalls: 5, toolResults: 4 });
    expect(run.report.runs.map((r) => [r.runId, r.toolCalls, r.toolResults])).toEqual([
      ['run-1', 4, 4],
      ['__proto__', 1, 0],
    ]);
    // Every catalog name but the one never called is matched: no unknown-tool, one unused-tool.
    expect(brief(run.report)).toEqual([
      "unused-tool@1 tool 'hasOwnProperty' is in the catalog but the run never called it (4 calls to other tools)",
      'malformed-record@2 record fits no native dialect (no kind, type, index or boundary fields): "{"__proto__":{"polluted":1}}"',
      'catalog-missing@11 run has 1 tool call but no catalog record: nothing to check the tool names against',
      "orphan-call@11 call 'constructor' to 'hasOwnProperty' has no result (nothing followed it in the run)",
    ]);
    expect(prototypeState()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('native records with a __proto__ key and tools named after Object.prototype members are counted once each', async () => {
    const before = prototypeState();
    const run = await auditJson([`${FIX}/proto.jsonl`]);
    expect(run.report.summary).toMatchObject({ runs: 1, toolCalls: 6, toolResults: 5 });
    expect(brief(run.report)).toEqual([
      'catalog-missing@1 run has 6 tool calls but no catalog record: nothing to check the tool names against',
      "orphan-call@1 call 'c0' to 'ls' has no result (the run went on without it, with no llm span after it)",
      'malformed-record@2 record fits no native dialect (no kind, type, index or boundary fields): "{"__proto__":{"polluted":1}}"',
    ]);
    expect(prototypeState()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('merging reports whose metrics are keyed constructor, toString, __proto__ sums them without touching a prototype', async () => {
    const before = prototypeState();
    const audit = await auditJson([`${FIX}/proto.jsonl`]);
    const forged = JSON.stringify(audit.report).replace('"metrics":{}', '"metrics":{"__proto__":{"polluted":1},"constructor":3,"a.b":{"__proto__":2,"toString":1}}');
    expect(forged).toContain('"constructor":3');
    const root = tempTree({ 'r1.json': forged, 'r2.json': forged });
    const run = await runInProcess(['merge', 'r1.json', 'r2.json', '--format', 'json'], root);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    // `__proto__` is dropped when the report is read (zod's record parse), never followed; the rest is summed.
    expect(reportSchema.parse(JSON.parse(run.stdout)).metrics).toEqual({ 'a.b': { toString: 2 }, constructor: 6 });
    expect(prototypeState()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
