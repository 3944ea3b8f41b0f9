import { expect, it } from 'vitest';
import { chooseFormat } from '../../src/ingest/detect.js';
import { DEFAULT_LIMITS } from '../../src/io/limits.js';
import { openTraceFile } from '../../src/io/trace-file.js';
import { corpusFile, corpusHas, describeCorpus, manifest } from '../public-corpus.js';

/** The formats this change adds, and the files of the public corpus that are theirs. */
const OWN: Record<string, (file: string) => boolean> = {
  'gemini-api': (file) => file.startsWith('cassettes/gemini-') || file.startsWith('go-vcr/fantasy-gemini-'),
  letta: (file) => file.startsWith('letta/'),
  agentbench: (file) => file.startsWith('agentbench/'),
};

const present = [...manifest().keys()].filter((file) => corpusHas(file)).sort();

describeCorpus('detection of gemini-api, letta and agentbench against every public corpus file', present.length > 0 ? present : ['agentbench/medagentbench-gemini-2.0-runs.jsonl'], () => {
  it('each claims its own files with a signature nothing else ties, and no file of another format', async () => {
    const claims: Array<[string, string | null, string | null]> = [];
    for (const file of present) {
      const opened = await openTraceFile(corpusFile(file), file, DEFAULT_LIMITS);
      const choice = chooseFormat(opened.sample);
      const id = choice.format?.id ?? null;
      const own = Object.keys(OWN).find((format) => OWN[format]!(file)) ?? null;
      if (own !== null || (id !== null && id in OWN)) claims.push([file, id, choice.format ? choice.note : null]);
    }
    // Every file is claimed by its own format (and only its files are), with no tie note.
    expect(claims.filter(([file, id]) => id === null || !OWN[id]?.(file))).toEqual([]);
    expect(claims.filter(([, , note]) => note !== null)).toEqual([]);
    expect(claims.length).toBe(present.filter((file) => Object.values(OWN).some((own) => own(file))).length);
  });
});
