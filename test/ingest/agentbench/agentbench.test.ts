import { expect, it } from 'vitest';
import { corpusCounts, corpusFile, describeCorpus } from '../../public-corpus.js';
import { auditPaths, auditTemp, countRun } from '../corpus.js';

// Truth (python3, see the manifest's `counted`): agent turns opening with GET / POST (after any ``` fence line)
// answered by the next user turn; 4 answers of the Gemini file say "Error in sending the GET request"; 19 of its
// records end on an agent turn that is no action (status "agent invalid action"); FINISH is not a call.
const FILES = ['agentbench/medagentbench-gemini-2.0-runs.jsonl', 'agentbench/medagentbench-deepseekv3-runs.jsonl'];

function totals(runs: Awaited<ReturnType<typeof auditPaths>>['runs']) {
  const counted = runs.map(countRun);
  return {
    runs: counted.length,
    llm: counted.reduce((n, r) => n + r.llm, 0),
    calls: counted.reduce((n, r) => n + r.calls, 0),
    results: counted.reduce((n, r) => n + r.results, 0),
    errors: counted.reduce((n, r) => n + r.errors, 0),
    orphans: counted.reduce((n, r) => n + r.orphans.length, 0),
    unmatched: counted.reduce((n, r) => n + r.unmatched.length, 0),
  };
}

describeCorpus('AgentBench run records (MedAgentBench)', FILES, () => {
  it('reads GET / POST turns as calls answered by the next user turn, one ingest-note per run with calls', async () => {
    const file = FILES[0]!;
    const { result, runs } = await auditPaths([corpusFile(file)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([
      ['agentbench', 46, [{ reason: 'agent turn that is no GET / POST / FINISH action (MedAgentBench ends the task: agent invalid action)', count: 19, firstLine: 11 }]],
    ]);
    const counts = corpusCounts(file);
    expect(totals(runs)).toEqual({ runs: 46, llm: 86, calls: counts.calls, results: counts.results, errors: 4, orphans: counts.orphans, unmatched: 0 });
    const byRule = new Map<string, number>();
    for (const f of result.findings) byRule.set(`${f.ruleId}/${f.severity}`, (byRule.get(`${f.ruleId}/${f.severity}`) ?? 0) + 1);
    expect(Object.fromEntries([...byRule].sort())).toEqual({ 'catalog-missing/note': 27, 'ingest-note/note': 27, 'unstructured-error/warning': 4 });
    // The 4 error answers are bare text ("Error in sending the GET request: 400 Client Error …"): unstructured, as the rule says.
    const run = runs.find((r) => r.runId === '99')!;
    expect(run.calls.map((c) => [c.tool, c.args])).toEqual([
      ['GET', { url: 'http://34.170.56.151:8080/fhir/Observation?code=A1C&patient=S6488980' }],
      ['POST', expect.objectContaining({ url: 'http://34.170.56.151:8080/fhir/ServiceRequest', body: expect.objectContaining({ resourceType: 'ServiceRequest' }) })],
    ]);
  });

  it('reads the DeepSeek-V3 file: 100 calls in 100 runs, URLs with spaces kept whole', async () => {
    const file = FILES[1]!;
    const { result, runs } = await auditPaths([corpusFile(file)]);
    expect(result.files.map((f) => [f.format, f.runs, f.skipped])).toEqual([['agentbench', 100, []]]);
    const counts = corpusCounts(file);
    expect(totals(runs)).toEqual({ runs: 100, llm: 200, calls: counts.calls, results: counts.results, errors: 0, orphans: counts.orphans, unmatched: 0 });
    expect(runs.find((r) => r.runId === '9')!.calls.map((c) => c.args)).toEqual([{ url: 'http://34.170.56.151:8080/fhir/Patient?name=Kyle Jia&birthdate=1969-05-15' }]);
    expect(result.findings.filter((f) => f.severity !== 'note')).toEqual([]);
  });
});

it('refuses a run record of another AgentBench task (its prompt states no MedAgentBench convention): skipped, partial-read, no guessed calls', async () => {
  const record = { index: 0, error: null, info: null, time: { timestamp: 1 }, output: { index: 0, status: 'completed', result: null, history: [
    { role: 'user', content: 'You are an assistant that will act like a person. Act: bash or Act: finish.' },
    { role: 'agent', content: 'Think: list files.\n\nAct: bash\n\n```bash\nls\n```' },
    { role: 'user', content: 'The output of the OS:\nREADME.md' },
  ] } };
  const { result, runs } = await auditTemp({ 'runs.jsonl': `${JSON.stringify(record)}\n` });
  expect(result.files.map((f) => [f.format, f.skipped.map((s) => s.reason)])).toEqual([
    ['agentbench', ['AgentBench task of an action convention not known (only MedAgentBench GET / POST / FINISH): not read']],
  ]);
  expect(runs.flatMap((r) => r.calls)).toEqual([]);
  expect(result.findings.map((f) => [f.ruleId, f.severity])).toEqual([['partial-read', 'warning']]);
});

it('a record of a task that failed (error, no history) is counted as skipped; the MedAgentBench record beside it is read', async () => {
  const prompt = 'GET url?param_name1=param_value1\nPOST url\n[payload]\nFINISH([answer1, answer2, ...])';
  const failed = { index: 1, error: 'TASK_LIMIT_REACHED', info: null, output: null, time: { timestamp: 1 } };
  const ok = { index: 2, error: null, info: null, time: { timestamp: 2 }, output: { index: 2, status: 'completed', result: '[1]', history: [
    { role: 'user', content: prompt },
    { role: 'agent', content: '```tool_code\nPOST http://h/fhir/Observation\n{"resourceType": "Observation"}\n```' },
    { role: 'user', content: 'Error in sending the POST request: 500 Server Error' },
    { role: 'agent', content: 'FINISH([1])' },
  ] } };
  const { result, runs } = await auditTemp({ 'runs.jsonl': `${JSON.stringify(failed)}\n${JSON.stringify(ok)}\n` });
  expect(result.files.map((f) => [f.format, f.skipped.map((s) => [s.reason, s.firstLine])])).toEqual([
    ['agentbench', [['AgentBench run record of a task that failed (an error, no history)', 1]]],
  ]);
  expect(runs.map(countRun)).toEqual([{ runId: '2', llm: 2, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: [] }]);
  expect(runs[0]!.calls.map((c) => [c.callId, c.tool, c.args])).toEqual([['2#1', 'POST', { url: 'http://h/fhir/Observation', body: { resourceType: 'Observation' } }]]);
});
