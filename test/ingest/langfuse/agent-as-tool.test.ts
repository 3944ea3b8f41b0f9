import { expect, it } from 'vitest';
import { auditTemp, countRun } from '../corpus.js';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });

/**
 * A Langfuse export of an agent that runs another agent as a tool: the planner's
 * generation asks for c1 `research_agent`; the TOOL observation of c1 holds the
 * researcher's AGENT observation, whose generations ask for c2 `web_search` and answer;
 * then the planner's second generation.
 */
function exportOf(researcherGoesOnEarly: boolean): string {
  const generation = (id: string, parent: string | null, start: number, end: number, output: unknown) => ({
    id, type: 'GENERATION', name: 'chat', parentObservationId: parent, startTime: at(start), endTime: at(end), input: [], output,
  });
  const tool = (id: string, parent: string | null, name: string, callId: string, start: number, end: number, output: string) => ({
    id, type: 'TOOL', name, parentObservationId: parent, startTime: at(start), endTime: at(end), input: {}, output,
    metadata: { attributes: { 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': callId } },
  });
  const observations = [
    { id: 'planner', type: 'AGENT', name: 'planner', parentObservationId: null, startTime: at(0), endTime: at(460) },
    generation('g1', 'planner', 10, 100, { role: 'assistant', content: null, tool_calls: [call('c1', 'research_agent')] }),
    tool('t1', 'planner', 'research_agent', 'c1', 110, 350, 'tides follow the moon'),
    { id: 'researcher', type: 'AGENT', name: 'researcher', parentObservationId: 't1', startTime: at(120), endTime: at(340) },
    generation('g2', 'researcher', 130, 200, { role: 'assistant', content: null, tool_calls: [call('c2', 'web_search')] }),
    tool('t2', 'researcher', 'web_search', 'c2', 210, researcherGoesOnEarly ? 300 : 250, '["moon"]'),
    generation('g3', 'researcher', researcherGoesOnEarly ? 220 : 260, researcherGoesOnEarly ? 250 : 290, { role: 'assistant', content: 'tides follow the moon' }),
    generation('g4', 'planner', 400, 450, { role: 'assistant', content: 'done' }),
  ];
  return JSON.stringify({ trace: { id: 'trace-1', name: 'planner' }, observations }, null, 2);
}

it('langfuse: the generations of an agent run as a tool are that agent\'s own run: no continued-while-outstanding on the call that runs it', async () => {
  const { result, runs } = await auditTemp({ 'trace.json': exportOf(false) });
  expect(result.files.map((f) => [f.format, f.runs])).toEqual([['langfuse', 2]]);
  expect(Object.fromEntries(runs.map((r) => [r.runId, countRun(r)]))).toEqual({
    'trace-1': { runId: 'trace-1', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
    'trace-1/t1': { runId: 'trace-1/t1', llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: [] },
  });
  expect(result.findings.map((f) => [f.ruleId, f.runId])).toEqual([['catalog-missing', 'trace-1'], ['catalog-missing', 'trace-1/t1']]);
});

it('langfuse: a nested agent that goes on while its own call is outstanding is still found, in its own run', async () => {
  const { result } = await auditTemp({ 'trace.json': exportOf(true) });
  expect(result.findings.filter((f) => f.ruleId !== 'catalog-missing').map((f) => [f.ruleId, f.runId, f.callId])).toEqual([
    ['continued-while-outstanding', 'trace-1/t1', 'c2'],
    ['late-result', 'trace-1/t1', 'c2'],
  ]);
});
