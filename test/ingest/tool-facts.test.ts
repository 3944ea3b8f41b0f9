import { describe, expect, it } from 'vitest';
import { FactCollector, resultFact, type Place } from '../../src/ingest/tool-facts.js';

const place: Place = { loc: { file: 'f', line: 1 }, runId: 'r', ts: null };

describe('FactCollector (src/ingest/tool-facts.ts): results named from their calls', () => {
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
