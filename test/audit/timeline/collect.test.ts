import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../src/config/config.js';
import { timelineCollector } from '../../../src/audit/timeline/collect.js';
import { rankRuns } from '../../../src/report/timeline/rank.js';
import { BAR_FLAG } from '../../../src/model/timeline.js';
import { audited, jsonl, tempTree } from '../../helpers.js';

async function timelinesOf(files: Record<string, string>) {
  const root = tempTree(files);
  const inputs = Object.keys(files).sort().map((name) => ({ path: join(root, name), display: name }));
  const drawn = timelineCollector();
  const config = resolveConfig({});
  const { report } = await audited(inputs, config, { onRun: drawn.onRun });
  return { timelines: drawn.timelines, report };
}

const at = (ms: number) => new Date(Date.UTC(2026, 8, 7, 10, 0, 0, ms)).toISOString();

describe('collectTimeline', () => {
  it('draws llm spans and calls from call to result, orphans open, errors, budget misses and retry storms flagged', async () => {
    const records = [
      { ts: at(0), run_id: 'r', span_id: 'l1', kind: 'llm', end_ts: at(100) },
      { ts: at(100), run_id: 'r', span_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'fetch', args: { u: 1 }, deadline_ms: 50 },
      { ts: at(400), run_id: 'r', span_id: 'b', kind: 'tool_result', call_id: 'c1', tool: 'fetch', error_class: 'Timeout' },
      ...[2, 3, 4].flatMap((n) => [
        { ts: at(400 + n), run_id: 'r', span_id: `c${n}`, kind: 'tool_call', call_id: `c${n}`, tool: 'search', args: { q: 'same' } },
        { ts: at(410 + n), run_id: 'r', span_id: `d${n}`, kind: 'tool_result', call_id: `c${n}`, tool: 'search', result: 'ok' },
      ]),
      { ts: at(500), run_id: 'r', span_id: 'e', kind: 'tool_call', call_id: 'c9', tool: 'hang' },
      { ts: at(900), run_id: 'r', span_id: 'l2', kind: 'llm' },
    ];
    const { timelines } = await timelinesOf({ 't.jsonl': jsonl(...records) });
    expect(timelines.length).toBe(1);
    const t = timelines[0]!;
    expect({ file: t.file, runId: t.runId, timed: t.timed, end: t.end, lanes: t.lanes, truncated: t.truncated }).toEqual({
      file: 't.jsonl',
      runId: 'r',
      timed: true,
      end: 900,
      lanes: ['model', 'fetch', 'search', 'hang'],
      truncated: 0,
    });
    expect(t.bars).toEqual([
      { lane: 0, start: 0, end: 100, line: 1, callId: null, flags: BAR_FLAG.llm, storm: 0 },
      { lane: 1, start: 100, end: 400, line: 2, callId: 'c1', flags: BAR_FLAG.error | BAR_FLAG.late, storm: 0 },
      { lane: 2, start: 402, end: 412, line: 4, callId: 'c2', flags: BAR_FLAG.storm, storm: 1 },
      { lane: 2, start: 403, end: 413, line: 6, callId: 'c3', flags: BAR_FLAG.storm, storm: 1 },
      { lane: 2, start: 404, end: 414, line: 8, callId: 'c4', flags: BAR_FLAG.storm, storm: 1 },
      { lane: 3, start: 500, end: null, line: 10, callId: 'c9', flags: BAR_FLAG.open, storm: 0 },
      { lane: 0, start: 900, end: 900, line: 11, callId: null, flags: BAR_FLAG.llm, storm: 0 },
    ]);
  });

  it('draws a run without timestamps by record order', async () => {
    const records = [
      { run_id: 'u', span_id: 'l', kind: 'llm' },
      { run_id: 'u', span_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'read' },
      { ts: at(5), run_id: 'u', span_id: 'b', kind: 'tool_result', call_id: 'c1', tool: 'read' },
    ];
    const { timelines } = await timelinesOf({ 'u.jsonl': jsonl(...records) });
    expect(timelines[0]!.timed).toBe(false);
    expect(timelines[0]!.end).toBe(3);
    expect(timelines[0]!.bars).toEqual([
      { lane: 0, start: 0, end: 1, line: 1, callId: null, flags: BAR_FLAG.llm, storm: 0 },
      { lane: 1, start: 1, end: 2, line: 2, callId: 'c1', flags: 0, storm: 0 },
    ]);
  });

  it('sanitizes tool names and call ids (a secret never reaches a picture)', async () => {
    const key = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
    const { timelines } = await timelinesOf({ 's.jsonl': jsonl({ ts: at(0), run_id: 'r', span_id: 'a', kind: 'tool_call', call_id: key, tool: `tool\u202e${key}` }) });
    const text = JSON.stringify(timelines);
    expect(text).not.toContain(key);
    expect(text).not.toContain('\u202e');
  });

  it('keeps at most the total bar cap over all runs; later runs keep their name and say how many bars were left out', async () => {
    const calls = (run: string) => [0, 1, 2].map((n) => ({ ts: at(n), run_id: run, span_id: `${run}${n}`, kind: 'tool_call', call_id: `${run}${n}`, tool: 't' }));
    const root = tempTree({ 'a.jsonl': jsonl(...calls('a')), 'b.jsonl': jsonl(...calls('b')) });
    const drawn = timelineCollector(4);
    materialize(await runAudit(['a.jsonl', 'b.jsonl'].map((name) => ({ path: join(root, name), display: name })), resolveConfig({}), { onRun: drawn.onRun }));
    expect(drawn.timelines.map((t) => [t.runId, t.bars.length, t.truncated])).toEqual([
      ['a', 3, 0],
      ['b', 0, 3],
    ]);
  });

  it('ranks runs worst first: errors, then warnings, then notes', async () => {
    const clean = [
      { type: 'catalog', run_id: 'ok', catalog_names: ['a'] },
      { ts: at(0), run_id: 'ok', span_id: 'a', kind: 'tool_call', call_id: 'c', tool: 'a' },
      { ts: at(1), run_id: 'ok', span_id: 'b', kind: 'tool_result', call_id: 'c', tool: 'a' },
    ];
    const orphan = [{ ts: at(0), run_id: 'bad', span_id: 'a', kind: 'tool_call', call_id: 'c', tool: 'a' }];
    const { report, timelines } = await timelinesOf({ 'a.jsonl': jsonl(...clean), 'b.jsonl': jsonl(...orphan) });
    const ranked = rankRuns(report, timelines);
    expect(ranked.map((r) => r.timeline.runId)).toEqual(['bad', 'ok']);
    expect(ranked[0]!.counts.error).toBe(1);
    expect(ranked[1]!.counts).toEqual({ error: 0, warning: 0, note: 0 });
  });
});
