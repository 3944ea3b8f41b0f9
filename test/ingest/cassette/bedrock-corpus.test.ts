import { expect, it } from 'vitest';
import { describeCorpus } from '../../public-corpus.js';
import { auditEachCorpus, countRun, expectManifestCounts } from '../corpus.js';

// Bedrock cassettes of OpenInference's own instrumentation tests (Arize-ai/openinference, Apache-2.0):
// InvokeAgent responses recorded as !!binary AWS event streams (no Content-Type header kept), Converse
// and ConverseStream. Truth: the manifest's counts (python3 with zlib.crc32 over the frames, see `counted`).
const FILES = [
  'bedrock/openinference-agent-action-group.yaml',
  'bedrock/openinference-agent-knowledge-base.yaml',
  'bedrock/openinference-agent-collaborators.yaml',
  'bedrock/openinference-converse-tool-use.yaml',
  'bedrock/openinference-converse-stream-tool-use.yaml',
  'bedrock/openinference-converse-stream-tool-result.yaml',
];

describeCorpus('Bedrock cassettes: corpus (OpenInference)', FILES, () => {
  it("reads them as 'bedrock': the calls, results and orphans python3 counts, paired by trace id and toolUseId", async () => {
    const { files, runs: read, audits } = await auditEachCorpus(FILES);
    expect(files).toEqual(FILES.map(() => ['bedrock', 1, []]));
    const runs = read.map(countRun);
    FILES.forEach((file, i) => expectManifestCounts(file, runs[i]!));
    expect(audits.map((a) => a.runs[0]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args]))).toEqual([
      [[8, '37901850-e166-4283-bb79-dc573285869d-0', 'action_group_quick_start_6gq19__add_two_numbers', { n1: '10', n2: '20' }]],
      [[8, '7fc9fdb8-204f-4ef9-bc55-59257d478f30-0', 'knowledge_base__SSGLURQ9A5', { text: 'What is task decomposition?' }]],
      [
        [9, '203bd987-ced4-4ddd-a370-633c8b668e7f-0', 'agent_collaborator__SimpleSupervisor', { text: 'Please calculate the sum of the numbers 1, 2, 3, 4, 5, 6, 7, 8, 9, and 10.', type: 'TEXT' }],
        [9, '0a6ddb3d-46e9-4c8f-8838-1174bd35109e-0', 'agent_collaborator__MathSolverAgent', { text: 'Calculate the sum of 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10', type: 'TEXT' }],
      ],
      [[13, 'tooluse_Z4oIdWzp6MUkuN99WX3jLk', 'top_song', { sign: 'Radio XYZ' }]],
      [[12, 'tooluse_p0X002uYQ9y_0fFkBsyYRg', 'top_song', { sign: 'WZPZ' }]],
      [[2, 'tooluse_ZQEZysOVRqitr-89GxHizA', 'top_song', { sign: 'WZPZ' }]],
    ]);
    // The collaborators answer in the reverse order (the inner agent first): paired by trace id, not by order.
    expect(audits[2]!.runs[0]!.results.map((r) => [r.callId, r.content])).toEqual([
      ['0a6ddb3d-46e9-4c8f-8838-1174bd35109e-0', { text: 'The sum of 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 is 55.', type: 'TEXT' }],
      ['203bd987-ced4-4ddd-a370-633c8b668e7f-0', { text: 'The sum of the numbers 1, 2, 3, 4, 5, 6, 7, 8, 9, and 10 is 55.', type: 'TEXT' }],
    ]);
    expect(runs.map((r) => r.catalog)).toEqual([[], [], [], ['top_song'], ['top_song'], ['top_song']]);
    expect(audits.map((a) => a.result.findings.map((f) => [f.ruleId, f.line, f.callId]))).toEqual([
      // An agent's action groups are not in the request: nothing names its tools.
      [['catalog-missing', 8, null]],
      [['catalog-missing', 8, null]],
      [['catalog-missing', 9, null]],
      // The cassette ends with the model's toolUse: nothing ran it.
      [['orphan-call', 13, 'tooluse_Z4oIdWzp6MUkuN99WX3jLk']],
      [['orphan-call', 12, 'tooluse_p0X002uYQ9y_0fFkBsyYRg']],
      [],
    ]);
  });
});

// InvokeModelWithResponseStream (each chunk's base64 `bytes` one event of the model's own stream) and Amazon Nova's InvokeModel.
const INVOKE = ['bedrock/openinference-invoke-stream-anthropic-tool-use.yaml', 'bedrock/openinference-nova-tool-use.yaml', 'bedrock/openinference-nova-stream.yaml'];

describeCorpus('Bedrock InvokeModel cassettes: corpus (OpenInference)', INVOKE, () => {
  it("assembles an Anthropic model's stream from the chunks' bytes, and reads Nova's Converse-shaped bodies and stream", async () => {
    const { files, runs: read, audits } = await auditEachCorpus(INVOKE);
    expect(files).toEqual([['anthropic-messages', 1, []], ['bedrock', 1, []], ['bedrock', 1, []]]);
    INVOKE.forEach((file, i) => expectManifestCounts(file, countRun(read[i]!)));
    expect(audits.map((a) => a.runs[0]!.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args]))).toEqual([
      [
        // The request replays the Los Angeles calls with their results; the streamed response asks for San Francisco.
        [2, 'toolu_bdrk_01LzqVRttWAxkjdq19wmG2Cn', 'get_current_weather_info', { city: 'Los Angeles' }],
        [2, 'toolu_bdrk_01EDzXjPQZSVnEzttRY98wyT', 'get_current_population_info', { city: 'Los Angeles' }],
        [31, 'toolu_bdrk_01CquHF9otnnrgxxx54tVxau', 'get_current_weather_info', { city: 'San Francisco' }],
        [31, 'toolu_bdrk_017gKMzG8LV5r3snEuhgaSvt', 'get_current_population_info', { city: 'San Francisco' }],
      ],
      [[13, 'f138f98b-8fa4-46e8-8d0f-6a3da738bb1d', 'get_weather', { location: 'Seattle' }]],
      [],
    ]);
    expect(audits.map((a) => a.result.findings.map((f) => [f.ruleId, f.line, f.callId]))).toEqual([
      [['orphan-call', 31, 'toolu_bdrk_017gKMzG8LV5r3snEuhgaSvt'], ['orphan-call', 31, 'toolu_bdrk_01CquHF9otnnrgxxx54tVxau']],
      [['orphan-call', 13, 'f138f98b-8fa4-46e8-8d0f-6a3da738bb1d']],
      // A text answer, read whole (nothing skipped): no tool calls.
      [['ingest-note', 0, null]],
    ]);
  });
});
