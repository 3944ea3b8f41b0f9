import { expect, it } from 'vitest';
import { describeCorpus } from '../../public-corpus.js';
import { auditEachCorpus as auditEach, auditTemp, countRun, expectManifestCounts as expectCounts } from '../corpus.js';

// Truth: the manifest's counts (python3 over the YAML, see each row's `counted`).

const PARSED_BODY = [
  'cassettes/pydantic-ai-openai-responses-tool-call.yaml',
  'cassettes/pydantic-ai-openai-chat-tool-calls.yaml',
  'cassettes/pydantic-ai-anthropic-parallel-tool-calls.yaml',
];

describeCorpus('VCR cassettes: pydantic-ai parsed_body bodies', PARSED_BODY, () => {
  it('reads bodies kept as a YAML mapping under parsed_body: Responses items, Chat tool_calls, Anthropic blocks', async () => {
    const { files, runs, findings } = await auditEach(PARSED_BODY);
    expect(files).toEqual([
      ['openai', 1, []],
      ['openai', 1, []],
      ['anthropic-messages', 1, []],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['get_capital'] },
      { runId: null, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['get_temperature'] },
      { runId: null, llm: 2, calls: 4, results: 4, errors: 0, orphans: [], unmatched: [], catalog: ['retrieve_entity_info'] },
    ]);
    PARSED_BODY.forEach((file, i) => expectCounts(file, countRun(runs[i]!)));
    expect(findings).toEqual([]);
  });
});

const SERVER_TOOLS = ['cassettes/anthropic-server-tools-web-search.yaml', 'cassettes/anthropic-server-tools-code-execution.yaml'];

describeCorpus('Anthropic server tools: server_tool_use answered by a *_tool_result block', SERVER_TOOLS, () => {
  it('pairs web_search and bash_code_execution with their result blocks: no orphan-call', async () => {
    const { runs, findings } = await auditEach(SERVER_TOOLS);
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: ['web_search'] },
      // code_execution_20250825 is called through its two sub-tools.
      { runId: null, llm: 2, calls: 2, results: 2, errors: 0, orphans: [], unmatched: [], catalog: ['bash_code_execution', 'text_editor_code_execution'] },
    ]);
    SERVER_TOOLS.forEach((file, i) => expectCounts(file, countRun(runs[i]!)));
    expect(runs[1]!.calls.map((c) => c.tool)).toEqual(['bash_code_execution', 'bash_code_execution']);
    expect(findings.map((f) => [f.ruleId, f.severity, f.message])).toEqual([
      ['unused-tool', 'note', "tool 'text_editor_code_execution' is in the catalog but the run never called it (2 calls to other tools)"],
    ]);
  });
});

const GEMINI = [
  'cassettes/gemini-pydantic-ai-instructions-tool-calls.yaml',
  'cassettes/gemini-crewai-parallel-tool-calls.yaml',
  'cassettes/gemini-pydantic-ai-tool-output.yaml',
  'cassettes/gemini-pydantic-ai-streaming-tool-call.yaml',
];

describeCorpus('Gemini API cassettes (generateContent)', GEMINI, () => {
  it('reads functionCall / functionResponse parts once each, with the ids the client added', async () => {
    const { files, runs, findings } = await auditEach(GEMINI);
    expect(files).toEqual([
      ['gemini-api', 1, []],
      ['gemini-api', 1, []],
      ['gemini-api', 1, []],
      ['gemini-api', 1, []],
    ]);
    expect(runs.map(countRun)).toEqual([
      // pydantic-ai's output tool final_result ends the run: nothing answers it in the cassette.
      { runId: null, llm: 5, calls: 7, results: 6, errors: 0, orphans: ['-:final_result'], unmatched: [], catalog: ['final_result', 'generate_topic'] },
      { runId: null, llm: 2, calls: 3, results: 3, errors: 0, orphans: [], unmatched: [], catalog: ['parallel_local_search_one', 'parallel_local_search_three', 'parallel_local_search_two'] },
      { runId: null, llm: 2, calls: 2, results: 1, errors: 0, orphans: ['-:final_result'], unmatched: [], catalog: ['final_result', 'get_user_country'] },
      // streamGenerateContent?alt=sse: the response's chunks are assembled into one response.
      { runId: null, llm: 2, calls: 1, results: 1, errors: 0, orphans: [], unmatched: [], catalog: ['get_country'] },
    ]);
    GEMINI.forEach((file, i) => expectCounts(file, countRun(runs[i]!)));
    // The response's calls are kept as the next request repeats them, with pydantic-ai's ids, at the response's line.
    expect(runs[0]!.calls.slice(0, 3).map((c) => [c.loc.line, c.callId])).toEqual([
      [56, 'pyd_ai_df5891897e434a16add992cc09f10172'],
      [56, 'pyd_ai_102eb2f935364e77bac26307e3428e2b'],
      [56, 'pyd_ai_cc6e16722f9a428db81532521a689ea7'],
    ]);
    expect(findings.filter((f) => f.ruleId === 'orphan-call' || f.ruleId === 'malformed-record' || f.ruleId === 'unknown-format').map((f) => [f.file.split('/').pop(), f.ruleId, f.line])).toEqual([
      ['gemini-pydantic-ai-instructions-tool-calls.yaml', 'orphan-call', 650],
      ['gemini-pydantic-ai-tool-output.yaml', 'orphan-call', 151],
    ]);
  });
});

it('a Gemini cassette whose second request starts a new conversation reads both, each call once', async () => {
  const turn = (contents: string, candidates: string) => `- request:
    body: '{"contents": ${contents}, "tools": [{"functionDeclarations": [{"name": "lookup"}]}]}'
    method: POST
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent
  response:
    body:
      string: '{"candidates": [{"content": {"role": "model", "parts": ${candidates}}}]}'
    status: {code: 200, message: OK}
`;
  const user = '{"role": "user", "parts": [{"text": "hi"}]}';
  const call = '[{"functionCall": {"name": "lookup", "args": {"q": 1}}}]';
  const answer = '{"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"error": "not found"}}}]}';
  const yaml = `interactions:\n${turn(`[${user}]`, call)}${turn(`[${user}, {"role": "model", "parts": ${call}}, ${answer}]`, '[{"text": "done"}]')}${turn(`[${user}]`, call)}version: 1\n`;
  const { result, runs } = await auditTemp({ 'g.yaml': yaml });
  expect(result.files.map((f) => f.format)).toEqual(['gemini-api']);
  expect(runs.map(countRun)).toEqual([
    { runId: null, llm: 3, calls: 2, results: 1, errors: 1, orphans: ['-:lookup'], unmatched: [], catalog: ['lookup'] },
  ]);
});

it('a Gemini streamGenerateContent response recorded as a JSON list of chunks is assembled: its functionCall is read', async () => {
  const yaml = `interactions:
- request:
    body: '{"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}'
    method: POST
    uri: https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent
  response:
    body:
      string: '[{"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me look"}]}}]}, {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"id": "f1", "name": "lookup", "args": {"q": 1}}}]}}]}]'
    status: {code: 200, message: OK}
version: 1
`;
  const { result, runs } = await auditTemp({ 'g.yaml': yaml });
  expect(result.files.map((f) => [f.format, f.skipped])).toEqual([['gemini-api', []]]);
  expect(runs.map(countRun)).toEqual([{ runId: null, llm: 1, calls: 1, results: 0, errors: 0, orphans: ['f1:lookup'], unmatched: [], catalog: [] }]);
});
