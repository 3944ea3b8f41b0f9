import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Run } from '../../../src/model/run.js';
import { auditTemp } from '../corpus.js';
import { fields } from '../../payload-runs.js';
import { corpusFile, corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'langfuse';

type Obs = Record<string, unknown>;

/** `copies` of an export's observations, each with its own ids and an hour later than the one before. */
function repeated(observations: readonly Obs[], copies: number): Obs[] {
  const out: Obs[] = [];
  for (let k = 0; k < copies; k += 1) {
    const shift = (t: unknown) => (typeof t === 'string' ? new Date(Date.parse(t) + k * 3_600_000).toISOString() : t);
    const id = (v: unknown) => (typeof v === 'string' ? `${v}-${k}` : v);
    for (const o of observations) out.push({ ...o, id: id(o['id']), parentObservationId: id(o['parentObservationId']), startTime: shift(o['startTime']), endTime: shift(o['endTime']) });
  }
  return out;
}

const startOf = (o: Obs) => (typeof o['startTime'] === 'string' ? Date.parse(o['startTime']) : Infinity);

/** The same observations out of order, such that a stable sort by start gives `sorted` back: groups of one start time, last group first. */
function outOfOrder(sorted: readonly Obs[]): Obs[] {
  const groups: Obs[][] = [];
  for (const o of sorted) {
    const last = groups[groups.length - 1];
    if (last !== undefined && startOf(last[0]!) === startOf(o)) last.push(o);
    else groups.push([o]);
  }
  return groups.reverse().flat();
}

/** A run's records without their lines (the two files put the observations on different lines). */
const recordsOf = (runs: Run[]) =>
  runs.map((run) =>
    run.records.map((record) => {
      // Held records keep most fields as getters (src/audit/held/held-records.ts): copied through them, the line left out.
      const { loc, ...rest } = fields(record);
      return { ...rest, file: loc.file };
    }),
  );

describeCorpus('langfuse: a streamed export gives the records of a held one', corpusFilesUnder(dir), () => {
  // An export whose observations are in start order is read as it comes and its records are handed on
  // after each observation, as far as nothing can go before them; one out of order is held and sorted.
  // Both must give the same records in the same order: 40 copies of each corpus export in both orders.
  const names = corpusFilesUnder(dir).map((file) => file.slice(dir.length + 1)).filter((n) => n !== 'beeai.trace.json');
  it.each(names)('%s', async (name) => {
    const doc = JSON.parse(readFileSync(corpusFile(`${dir}/${name}`), 'utf8')) as Obs;
    const exported = (Array.isArray(doc) ? doc[0] : doc) as Obs;
    const trace = exported['trace'] as Obs;
    const observations = (exported['observations'] ?? trace['observations']) as Obs[];
    const all = repeated(observations, 40).sort((a, b) => startOf(a) - startOf(b));
    expect(all.length).toBeGreaterThan(64);
    const streamed = await auditTemp({ 'export.json': JSON.stringify({ trace: { ...trace, observations: undefined }, observations: all }, null, 2) });
    const held = await auditTemp({ 'export.json': JSON.stringify({ trace: { ...trace, observations: undefined }, observations: outOfOrder(all) }, null, 2) });
    expect(streamed.result.files.map((f) => f.format)).toEqual(['langfuse']);
    expect(streamed.runs.length).toBe(1);
    expect(streamed.runs[0]!.records.length).toBeGreaterThan(20);
    expect(recordsOf(streamed.runs)).toEqual(recordsOf(held.runs));
  });

  it('a result read before its call (a later span repeats the conversation with the call) is held back until the call goes before it', async () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    const generation = (n: number, input: unknown) => ({ id: `g${n}`, traceId: 't', type: 'GENERATION', name: 'chat', startTime: at(n), endTime: at(n), input, output: { role: 'assistant', content: 'ok' } });
    const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'ls', arguments: '{}' } }] });
    const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: `listing ${id}` });
    // g1 gives results of x and y without their calls, g2 a call and result of z; the span at the end has the calls.
    const observations = [
      generation(1, [{ role: 'user', content: 'go' }, result('x'), result('y')]),
      generation(2, [call('z'), result('z')]),
      { id: 's', traceId: 't', type: 'SPAN', name: 'agent', startTime: at(3), endTime: at(4), input: [call('x'), result('x'), call('y'), result('y')] },
    ];
    const read = async (list: unknown[]) => (await auditTemp({ 'export.json': JSON.stringify({ trace: { id: 't' }, observations: list }, null, 2) })).runs;
    const streamed = await read(observations);
    const order = streamed[0]!.records.map((r) => `${r.kind}${'callId' in r ? ` ${r.callId}` : ''}`);
    // What a generation was given goes before its llm record; the span's calls go before the results read first.
    expect(order).toEqual(['tool_call x', 'tool_result x', 'tool_call y', 'tool_result y', 'llm', 'tool_call z', 'tool_result z', 'llm']);
    expect(recordsOf(streamed)).toEqual(recordsOf(await read([observations[2], observations[1], observations[0]])));
  });
});
