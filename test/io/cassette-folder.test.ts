import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collectInputs } from '../../src/io/collect.js';
import { isCassetteFile } from '../../src/io/cassette-sniff.js';
import { reportSchema } from '../../src/report/schema.js';
import { tempTree } from '../helpers.js';
import { runBundle } from '../cli/run-cli.js';
import { corpusFile, describeCorpus } from '../public-corpus.js';

const CASSETTE_FILE = 'openai-chat/otel-contrib-tool-calls-cassette.yaml';
/** A real cassette (public corpus), read when a test that has it runs. */
const cassette = () => readFileSync(corpusFile(CASSETTE_FILE));
// Real YAML that is not a trace: this repository's own workflow, action metadata and a configuration file.
const WORKFLOW = readFileSync('.github/workflows/ci.yml');
const ACTION = readFileSync('action.yml');
const CONFIG = 'rules:\n  orphan-call: warning\n';

describeCorpus('a folder of VCR cassettes', [CASSETTE_FILE], () => {
  it('collects the cassettes of a folder, and no other YAML', async () => {
    const root = tempTree({
      'cassettes/tool-calls.yaml': cassette(),
      'cassettes/nested/again.YML': cassette(),
      'cassettes/ci.yml': WORKFLOW,
      'cassettes/action.yml': ACTION,
      'cassettes/config.yaml': CONFIG,
      'cassettes/empty.yaml': '',
    });
    const { inputs, skipped } = await collectInputs(['cassettes'], { root, strict: true });
    expect(inputs.map((i) => i.display)).toEqual(['cassettes/nested/again.YML', 'cassettes/tool-calls.yaml']);
    expect(skipped).toEqual([]);
    // A glob is sniffed like a folder; a YAML file named directly is always read.
    expect((await collectInputs(['cassettes/*.yml'], { root, strict: false })).inputs).toEqual([]);
    expect((await collectInputs(['cassettes/ci.yml'], { root, strict: true })).inputs.map((i) => i.display)).toEqual(['cassettes/ci.yml']);
  });

  it('sniffs a cassette behind a comment, a document marker, a BOM or CRLF line ends', async () => {
    const text = cassette().toString('utf8');
    const root = tempTree({
      'a.yaml': `# recorded by vcrpy\n---\n${text}`,
      'b.yaml': `\ufeff${text.replaceAll('\n', '\r\n')}`,
      'c.yaml': 'jobs:\n  interactions:\n    - request:\n',
    });
    expect(await Promise.all(['a.yaml', 'b.yaml', 'c.yaml', 'missing.yaml'].map((n) => isCassetteFile(join(root, n))))).toEqual([true, true, false, false]);
  });

  it('never reads a YAML symlink that leaves the workspace', async () => {
    const outside = tempTree({ 'secret.yaml': cassette() });
    const root = tempTree({ 'in/real.yaml': cassette() });
    symlinkSync(join(outside, 'secret.yaml'), join(root, 'in/link.yaml'));
    const { inputs, skipped } = await collectInputs(['in'], { root, strict: true });
    expect(inputs.map((i) => i.display)).toEqual(['in/real.yaml']);
    expect(skipped).toEqual([{ display: 'in/link.yaml', reason: 'refused: a symlink that leaves the workspace' }]);
  });

  it('dist/cli.js audits the folder: the cassette is read as openai (7 records, 1 run), the workflow is not', () => {
    const root = tempTree({ 'recorded/tool-calls.yaml': cassette(), 'recorded/ci.yml': WORKFLOW });
    const { code, stdout, stderr } = runBundle(['audit', 'recorded', '--format', 'json', '--fail-on', 'never'], root);
    expect([code, stderr]).toEqual([0, '']);
    expect(reportSchema.parse(JSON.parse(stdout)).files).toEqual([{ path: 'recorded/tool-calls.yaml', format: 'openai', records: 7, runs: 1, skipped: [], toolCalls: 2, toolResults: 2 }]);
  });
});
