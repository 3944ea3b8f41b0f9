import { expect, it } from 'vitest';
import { describeCorpus } from '../../public-corpus.js';
import { auditEachCorpus, countRun, expectManifestCounts } from '../corpus.js';

// go-vcr v2 cassettes of charmbracelet/fantasy's provider tests (Apache-2.0): the OpenAI Chat
// and Responses APIs, Anthropic Messages and the Gemini API, plain JSON bodies and streamed
// (text/event-stream) ones. Truth: the manifest's counts (python3 over the YAML, see `counted`).
const FILES = [
  'go-vcr/fantasy-openai-chat-multi-tool.yaml',
  'go-vcr/fantasy-openai-chat-multi-tool-streaming.yaml',
  'go-vcr/fantasy-openai-responses-tool-streaming.yaml',
  'go-vcr/fantasy-anthropic-multi-tool.yaml',
  'go-vcr/fantasy-anthropic-multi-tool-streaming.yaml',
  'go-vcr/fantasy-gemini-multi-tool.yaml',
  'go-vcr/fantasy-gemini-tool-streaming.yaml',
];

describeCorpus('go-vcr cassettes: corpus (charmbracelet/fantasy)', FILES, () => {
  it('reads each one with the reader of its API, as many calls, results and orphans as python3 counts', async () => {
    const { files, runs: read, findings } = await auditEachCorpus(FILES);
    expect(files).toEqual([
      ['openai', 1, []],
      ['openai', 1, []],
      ['openai', 1, []],
      ['anthropic-messages', 1, []],
      ['anthropic-messages', 1, []],
      ['gemini-api', 1, []],
      ['gemini-api', 1, []],
    ]);
    const runs = read.map(countRun);
    FILES.forEach((file, i) => expectManifestCounts(file, runs[i]!));
    expect(runs.map((r) => r.catalog)).toEqual([['add', 'multiply'], ['add', 'multiply'], ['weather'], ['add', 'multiply'], ['add', 'multiply'], ['add', 'multiply'], ['weather']]);
    expect(findings).toEqual([]);
  });

  it('pairs by the ids each API gives: streamed Chat deltas, Responses items, Anthropic blocks, Gemini ids the next request adds', async () => {
    const { runs } = await auditEachCorpus(FILES);
    expect(runs.map((r) => r.calls.map((c) => [c.loc.line, c.callId, c.tool, c.args]))).toEqual([
      [[22, 'call_fifE5poZ3dg3JDUKGFi48NGq', 'add', { a: 2, b: 3 }], [22, 'call_cvvIly4eGLZUYOMhAviT8jAF', 'multiply', { a: 2, b: 3 }]],
      [[22, 'call_ehIWdjL1abZk1h8FWGLQ0Hie', 'add', { a: 2, b: 3 }], [22, 'call_fBSgA47J5VeONggizTIvl7AH', 'multiply', { a: 2, b: 3 }]],
      [[22, 'call_PRiJm2RVAvt7IoRvjxIXxFVF', 'weather', { location: 'Florence, Italy' }]],
      [[22, 'toolu_01StBeRxDEwsqcc3arbDgpS9', 'add', { a: 2, b: 3 }], [22, 'toolu_01AC6WQhj2iRkdYHgTAGMpVQ', 'multiply', { a: 2, b: 3 }]],
      [[22, 'toolu_01UYxUYC2zRPY8wiutnF48eP', 'add', { a: 2, b: 3 }], [22, 'toolu_01VaRx1jpWCvPhi7L4kywAcd', 'multiply', { a: 2, b: 3 }]],
      [[22, '1', 'add', { a: 2, b: 3 }], [22, '2', 'multiply', { a: 2, b: 3 }]],
      [[25, '1', 'weather', { location: 'Florence,Italy' }]],
    ]);
    expect(runs.map((r) => r.results.map((c) => [c.loc.line, c.callId]))).toEqual([
      [[88, 'call_fifE5poZ3dg3JDUKGFi48NGq'], [88, 'call_cvvIly4eGLZUYOMhAviT8jAF']],
      [[61, 'call_ehIWdjL1abZk1h8FWGLQ0Hie'], [61, 'call_fBSgA47J5VeONggizTIvl7AH']],
      [[75, 'call_PRiJm2RVAvt7IoRvjxIXxFVF']],
      [[34, 'toolu_01StBeRxDEwsqcc3arbDgpS9'], [34, 'toolu_01AC6WQhj2iRkdYHgTAGMpVQ']],
      [[100, 'toolu_01UYxUYC2zRPY8wiutnF48eP'], [100, 'toolu_01VaRx1jpWCvPhi7L4kywAcd']],
      [[81, '1'], [81, '2']],
      [[36, '1']],
    ]);
  });
});
