import { expect, it } from 'vitest';
import { auditTemp, countRun } from '../corpus.js';
import { otlpJsonLine, sdkTracer } from './sdk-export.js';

const T = 1767225600000;
const toolCall = (id: string, name: string, args: unknown) => ({ type: 'tool_call', id, name, arguments: args });

/**
 * An agent that uses another agent as a tool, written by the real OpenTelemetry JS SDK
 * with GenAI conventions (as the OpenAI Agents SDK's `agent.as_tool()`, ADK's AgentTool,
 * or any framework's handoff-as-tool trace it): the planner's model asks for c1
 * `research_agent`; the execute_tool span of c1 runs the researcher agent, whose own
 * model asks for c2 `web_search` and, once c2 is answered, writes its answer; then c1
 * ends and the planner's model goes on.
 */
function agentAsTool(options: { researcherGoesOnEarly: boolean }): string {
  const { exporter, start } = sdkTracer();
  const planner = start('invoke_agent planner', T, { 'gen_ai.operation.name': 'invoke_agent' });
  const chat1 = start('chat gpt-4o', T + 10, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'research_agent', parameters: { type: 'object' } }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [toolCall('c1', 'research_agent', { topic: 'tides' })] }]),
  }, planner);
  chat1.end(T + 100);
  const asTool = start('execute_tool research_agent', T + 110, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'research_agent', 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.result': 'tides follow the moon' }, planner);
  const researcher = start('invoke_agent researcher', T + 120, { 'gen_ai.operation.name': 'invoke_agent' }, asTool);
  const inner1 = start('chat gpt-4o-mini', T + 130, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'web_search', parameters: { type: 'object' } }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [toolCall('c2', 'web_search', { q: 'tides' })] }]),
  }, researcher);
  inner1.end(T + 200);
  const search = start('execute_tool web_search', T + 210, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'web_search', 'gen_ai.tool.call.id': 'c2', 'gen_ai.tool.call.result': '["moon"]' }, researcher);
  // The researcher's own model writes its answer: after c2's result, or (planted) while c2 is still running.
  const innerAt = options.researcherGoesOnEarly ? T + 220 : T + 260;
  search.end(options.researcherGoesOnEarly ? T + 300 : T + 250);
  const inner2 = start('chat gpt-4o-mini', innerAt, { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'tides follow the moon' }] }]) }, researcher);
  inner2.end(innerAt + 30);
  researcher.end(T + 340);
  asTool.end(T + 350);
  const chat2 = start('chat gpt-4o', T + 400, { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }] }]) }, planner);
  chat2.end(T + 450);
  planner.end(T + 460);
  // Pretty-printed, as a trace saved from a collector or a backend: each span on lines of its own.
  return `${JSON.stringify(JSON.parse(otlpJsonLine(exporter.getFinishedSpans().slice())), null, 2)}\n`;
}

const TRACE = '00000000000000000000000000000001';

it('the model calls of an agent run as a tool are that agent\'s own run: no continued-while-outstanding on the call that runs it', async () => {
  const { result, runs } = await auditTemp({ 'trace.json': agentAsTool({ researcherGoesOnEarly: false }) });
  expect(result.files.map((f) => [f.format, f.runs])).toEqual([['otlp-json', 2]]);
  const byRun = Object.fromEntries(runs.map((r) => [r.runId, countRun(r)]));
  expect(byRun).toEqual({
    // The planner: c1 and its result, its two model calls, its catalog.
    [TRACE]: { runId: TRACE, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['research_agent'] },
    // The researcher, under the execute_tool span 0000000000000003 that runs it: its own catalog, calls and model calls.
    [`${TRACE}/0000000000000003`]: { runId: `${TRACE}/0000000000000003`, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['web_search'] },
  });
  expect(result.findings.map((f) => f.ruleId)).toEqual([]);
});

it('a nested agent that itself goes on while its own call is outstanding is still found, in its own run', async () => {
  const { result } = await auditTemp({ 'trace.json': agentAsTool({ researcherGoesOnEarly: true }) });
  expect(result.findings.map((f) => [f.ruleId, f.runId, f.callId])).toEqual([
    ['continued-while-outstanding', `${TRACE}/0000000000000003`, 'c2'],
    // c2's result came after the researcher had moved on: true of the planted trace too.
    ['late-result', `${TRACE}/0000000000000003`, 'c2'],
  ]);
});
