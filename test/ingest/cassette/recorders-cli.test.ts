import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { reportSchema } from '../../../src/report/schema.js';
import { tempTree } from '../../helpers.js';
import { runBundle } from '../../cli/run-cli.js';
import { corpusFile, describeCorpus } from '../../public-corpus.js';

const GEMINI = 'go-vcr/fantasy-gemini-tool-streaming.yaml';
const AGENT = 'bedrock/openinference-agent-action-group.yaml';

describeCorpus('dist/cli.js on a folder of go-vcr and Bedrock cassettes', [GEMINI, AGENT], () => {
  it('finds both in the folder scan and reads each with its reader: no unknown-format, nothing emptied', () => {
    const root = tempTree({ 'recorded/gemini.yaml': readFileSync(corpusFile(GEMINI)), 'recorded/agent.yaml': readFileSync(corpusFile(AGENT)), 'recorded/compose.yaml': 'version: "3"\nservices: {}\n' });
    const { code, stdout, stderr } = runBundle(['audit', 'recorded', '--format', 'json', '--fail-on', 'never'], root);
    expect([code, stderr]).toEqual([0, '']);
    const report = reportSchema.parse(JSON.parse(stdout));
    expect(report.files).toEqual([
      { path: 'recorded/agent.yaml', format: 'bedrock', records: 4, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 },
      { path: 'recorded/gemini.yaml', format: 'gemini-api', records: 5, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 },
    ]);
    expect(report.findings.map((f) => [f.ruleId, f.file, f.line])).toEqual([['catalog-missing', 'recorded/agent.yaml', 8]]);
  });
});
