import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { chooseFormat } from '../../src/ingest/detect.js';
import { FORMATS } from '../../src/ingest/registry.js';
import { Evidence, type DetectSample } from '../../src/ingest/types.js';
import { corpusFile, corpusFiles, corpusFilesUnder, corpusHas, describeCorpus, manifest } from '../public-corpus.js';

/** The files of the formats added for issue 37 (SWE-agent, mini-swe-agent, any-agent, OpenInference) and what reads each. */
const EXPECTED: Record<string, string> = {
  ...Object.fromEntries(corpusFilesUnder('swe-agent').map((file) => [file, file.endsWith('.traj.json') ? 'mini-swe-agent' : 'swe-agent'])),
  ...Object.fromEntries(corpusFilesUnder('any-agent').map((file) => [file, 'any-agent'])),
  'openinference/openinference-genai-client-span-tool-calls.json': 'otel-spans',
};
/** The files of EXPECTED there are (a pending one waits for the shared corpus: test/fixtures/public-corpus.md). */
const PRESENT = Object.keys(EXPECTED).filter((file) => corpusFiles().includes(file));
const NEW_FORMATS = new Set(['swe-agent', 'mini-swe-agent', 'any-agent']);

/** A detection sample as src/io/trace-file.ts builds one for a plain file of up to 1 MiB. */
function sampleOf(path: string, file: string): DetectSample {
  const head = readFileSync(path);
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const jsonLines: unknown[] = [];
  for (const line of text.split('\n')) {
    if (jsonLines.length >= 8) break;
    if (line.trim() === '') continue;
    try {
      jsonLines.push(JSON.parse(line));
    } catch {
      // not a JSON line
    }
  }
  let document: unknown;
  try {
    document = head.length <= 1024 * 1024 ? JSON.parse(text) : undefined;
  } catch {
    document = undefined;
  }
  return { file, head, jsonLines, document };
}

describeCorpus('detection of the trajectory and span formats of issue 37', PRESENT, () => {
  it('each of their public files is claimed by its format alone, with signature evidence', () => {
    for (const file of PRESENT) {
      const id = EXPECTED[file]!;
      const sample = sampleOf(corpusFile(file), file);
      const strongest = FORMATS.map((format) => [format.id, format.detect(sample)] as const).filter(([, evidence]) => evidence > 0).sort((a, b) => b[1] - a[1]);
      expect([file, strongest[0]]).toEqual([file, [id, Evidence.signature]]);
      expect([file, strongest.filter(([, evidence]) => evidence === Evidence.signature).length]).toEqual([file, 1]);
      expect(chooseFormat(sample)).toMatchObject({ format: { id }, note: null });
    }
  });

  it('no other public file is claimed by the new formats', () => {
    const others = [...manifest().keys()].filter((file) => !(file in EXPECTED) && corpusHas(file) && !/\.(gz|eval|zip)$/.test(file));
    expect(others.length).toBeGreaterThan(40);
    for (const file of others) {
      const sample = sampleOf(corpusFile(file), file);
      const claims = FORMATS.filter((format) => NEW_FORMATS.has(format.id) && format.detect(sample) > 0).map((format) => format.id);
      expect([file, claims]).toEqual([file, []]);
    }
  });
});
