import { describe, expect, it } from 'vitest';
import { ANSWERED_KEPT } from '../../src/ingest/read/by-run.js';
import { FactCollector, resultFact, type Place } from '../../src/ingest/facts/tool-facts.js';

const place: Place = { loc: { file: 'f', line: 1 }, runId: 'r', ts: null };

describe('FactCollector (src/ingest/facts/tool-facts.ts): results named from their calls', () => {
  it('names every result of a call id from the first call with that id, a second result and one after a reused id too', () => {
    const collector = new FactCollector(false);
    collector.fact({ kind: 'call', callId: 'a', tool: 'read_file', args: {} }, place);
    collector.fact(resultFact('a', null, 'x'), place);
    collector.fact(resultFact('a', null, 'y'), place);
    collector.fact({ kind: 'call', callId: 'a', tool: 'grep', args: {} }, place);
    collector.fact(resultFact('a', null, 'z'), place);
    collector.fact(resultFact('b', null, 'no call'), place);
    collector.fact(resultFact('a', 'own_name', 'w'), place);
    const tools = collector.records.flatMap((r) => (r.kind === 'tool_result' ? [r.tool] : []));
    expect(tools).toEqual(['read_file', 'read_file', 'read_file', null, 'own_name']);
  });
});

describe('FactCollector: the tool names it keeps are bounded (src/ingest/read/by-run.ts)', () => {
  it('keeps the calls still waiting, and the last ANSWERED_KEPT answered ones', () => {
    const collector = new FactCollector(false);
    collector.fact({ kind: 'call', callId: 'never-answered', tool: 'wait', args: {} }, place);
    for (let i = 0; i <= ANSWERED_KEPT; i += 1) {
      collector.fact({ kind: 'call', callId: `c${i}`, tool: `t${i}`, args: {} }, place);
      collector.fact(resultFact(`c${i}`, null, 'ok'), place);
    }
    // c0 was answered ANSWERED_KEPT + 1 answers ago: a second result of it is no longer named;
    // c1 is the oldest still kept; a call that never got its result is kept however long ago.
    for (const id of ['c0', 'c1', 'never-answered']) collector.fact(resultFact(id, null, 'again'), place);
    const tools = collector.records.flatMap((r) => (r.kind === 'tool_result' && r.content === 'again' ? [r.tool] : []));
    expect(tools).toEqual([null, 't1', 'wait']);
  });
});
