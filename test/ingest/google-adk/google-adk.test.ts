import { describe, expect, it } from 'vitest';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'google-adk';

// Counts read with python3: calls = function_call parts, results = function_response parts
// (none has an id in these older sessions: paired by tool name and order), llm = events not
// authored by the user with text or function_call parts and no function_response.
describeCorpus('google-adk: corpus sessions and eval sets', corpusFilesUnder(dir), () => {
  it('reads the saved sessions, calls paired by name where ADK gave no id', async () => {
    const { result, runs } = await auditCorpus([`${dir}/context-update.session.json`, `${dir}/flow-complex-spark.session.json`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['google-adk', 1, 5],
      ['google-adk', 1, 10],
    ]);
    // Counted with python3 (each event by the line it opens on): the user's events without a
    // function_call or function_response part; every other event gives a record.
    expect(result.files.map((f) => f.skipped)).toEqual([
      [{ reason: 'user event without a call or result', count: 2, firstLine: 18 }],
      [{ reason: 'user event without a call or result', count: 1, firstLine: 7 }],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: 'ead43200-b575-4241-9248-233b4be4f29a', llm: 3, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
      { runId: '683bcc98-7359-4b65-9cdb-307f85ae62c0', llm: 6, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([
      [null, 'transfer_to_other_agent', { agent_name: 'research_assistant' }],
      [null, 'transfer_to_other_agent', { agent_name: 'spark_assistant' }],
    ]);
    expect(findingList(result)).toEqual([
      ['catalog-missing', 65, 'ead43200-b575-4241-9248-233b4be4f29a', null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
      // These older sessions carry no call ids: pairing by order is said once per run (seed 001).
      ['ingest-note', 65, 'ead43200-b575-4241-9248-233b4be4f29a', null, '1 call without a call id paired with its result by order (the next id-less result of the same tool)'],
      ['catalog-missing', 23, '683bcc98-7359-4b65-9cdb-307f85ae62c0', null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
      ['ingest-note', 23, '683bcc98-7359-4b65-9cdb-307f85ae62c0', null, '2 calls without a call id paired with their results by order (the next id-less result of the same tool)'],
    ]);
  });

  it('a saved session with no events yet, or with its id after its events, is a session (the wild check: adk-python initial.session.json)', async () => {
    const empty = { id: 'test_id', app_name: 'trip_planner_agent', user_id: 'test_user', state: { origin: 'San Francisco' }, events: [], last_update_time: 1741218714.258285 };
    const late = {
      events: [{ author: 'planner', content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'find_flights', args: { to: 'Paris' } } }] } }],
      app_name: 'trip_planner_agent',
      id: 'late_id',
    };
    const { result, runs } = await auditTemp({ 'empty.session.json': JSON.stringify(empty, null, 2), 'late.session.json': JSON.stringify(late, null, 2) });
    expect(result.files.map((f) => [f.path.split('/').pop(), f.format, f.runs, f.records])).toEqual([
      ['empty.session.json', 'google-adk', 0, 0],
      ['late.session.json', 'google-adk', 1, 2],
    ]);
    expect(findingList(result).filter(([rule]) => rule === 'malformed-record')).toEqual([]);
    expect(runs.map((r) => [r.runId, r.calls.map((c) => c.callId)])).toEqual([['late_id', ['c1']]]);
  });

  it('an eval set is one note saying it lists expected calls, never an empty clean audit', async () => {
    const { result, runs } = await auditCorpus([`${dir}/home-automation-simple.test.json`, `${dir}/roll-die.test.json`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['google-adk', 0, 0],
      ['google-adk', 0, 0],
    ]);
    expect(runs).toEqual([]);
    // python3: eval_cases = 1 each, conversation[].intermediate_data.tool_uses = 1 each.
    const note = (id: string) =>
      `ADK eval set '${id}': 1 eval case(s) with 1 expected tool call(s). An eval set describes the calls a run should make, not a run: nothing in it was audited (audit the session files the evaluation writes instead)`;
    expect(findingList(result)).toEqual([
      ['ingest-note', 1, null, null, note('b305bd06-38c5-4796-b9c7-d9c7454338b9')],
      ['ingest-note', 1, null, null, note('56540925-a5ff-49fe-a4e1-589fe78066f2')],
    ]);
  });
});

describe('google-adk: what adk web saves (camelCase, call ids)', () => {
  it('pairs by id and reads an error response', async () => {
    const event = (id: string, author: string, parts: unknown[], timestamp: number) => ({ id, invocationId: 'e-1', author, content: { role: author === 'user' ? 'user' : 'model', parts }, actions: {}, timestamp });
    const session = {
      id: 's-42',
      appName: 'weather_agent',
      userId: 'user',
      state: {},
      events: [
        event('1', 'user', [{ text: 'weather in Paris and Rome?' }], 1767600000.1),
        event('2', 'weather_agent', [{ functionCall: { id: 'adk-a', name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { id: 'adk-b', name: 'get_weather', args: { city: 'Rome' } } }], 1767600001.2),
        event('3', 'weather_agent', [{ functionResponse: { id: 'adk-b', name: 'get_weather', response: { error: 'upstream timeout' } } }, { functionResponse: { id: 'adk-a', name: 'get_weather', response: { result: '18C' } } }], 1767600002.3),
        event('4', 'weather_agent', [{ text: 'Paris is 18C; Rome failed.' }], 1767600003.4),
      ],
      lastUpdateTime: 1767600003.4,
    };
    const { result, runs } = await auditTemp({ 'session.json': JSON.stringify(session, null, 2) });
    expect(result.files).toEqual([{ path: 'session.json', format: 'google-adk', records: 6, runs: 1, skipped: [{ reason: 'user event without a call or result', count: 1, firstLine: 7 }], toolCalls: 2, toolResults: 2 }]);
    expect(countRun(runs[0]!)).toEqual({ runId: 's-42', llm: 2, calls: 2, results: 2, errors: 1, orphans: [], unmatched: [], catalog: [] });
    expect(runs[0]!.results.map((r) => [r.callId, r.isError, r.ts])).toEqual([
      ['adk-b', true, 1767600002300],
      ['adk-a', false, 1767600002300],
    ]);
  });
});

describe('google-adk: eval sets in their other spellings', () => {
  it('the older .test.json list and a camelCase .evalset.json are one note each', async () => {
    const older = [
      { query: 'turn off the light', expected_tool_use: [{ tool_name: 'set_device_info', tool_input: { device_id: 'd1', status: 'OFF' } }], reference: 'done' },
      { query: 'and the fan', expected_tool_use: [{ tool_name: 'set_device_info', tool_input: { device_id: 'd2', status: 'OFF' } }, { tool_name: 'get_device_info', tool_input: { device_id: 'd2' } }], reference: 'done' },
    ];
    const camel = { evalSetId: 'weather', evalCases: [{ evalId: 'c1', conversation: [{ invocationId: 'i1', intermediateData: { toolUses: [{ name: 'get_weather', args: { city: 'Paris' } }] } }] }] };
    const { result } = await auditTemp({ 'a.test.json': JSON.stringify(older, null, 2), 'b.evalset.json': JSON.stringify(camel, null, 2) });
    expect(result.files.map((f) => [f.path, f.format, f.records])).toEqual([
      ['a.test.json', 'google-adk', 0],
      ['b.evalset.json', 'google-adk', 0],
    ]);
    expect(findingList(result).map(([rule, line, , , message]) => [rule, line, message.slice(0, message.indexOf('.'))])).toEqual([
      ['ingest-note', 1, 'ADK eval set: 2 eval case(s) with 3 expected tool call(s)'],
      ['ingest-note', 1, "ADK eval set 'weather': 1 eval case(s) with 1 expected tool call(s)"],
    ]);
  });
});
