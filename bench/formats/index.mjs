// The one registry of the bench's per-format generators (and of the tests of flat memory):
// every format a generator can write, next to each other, so bench/formats/rows.mjs treats
// them alike. An entry: `id` (the row's name), `format` (the CLI's format id), `baseline`
// ('lines' or 'document': the bare parse loop it is compared with), `ext`, `sources` (the
// files whose change writes its cached files anew) and `write(path, bytes, seed)`,
// resolving to what it wrote: { bytes, runs, calls, results, … }. The JSONL session
// generators also keep `session` (one session's text, for writeSessions).
import { fileURLToPath } from 'node:url';
import { BIG_GENERATORS } from './big.mjs';
import { claudeCode } from './claude-code.mjs';
import { codex } from './codex.mjs';
import { DOCUMENT_FORMATS, writeDocument } from './documents.mjs';
import { geminiCli } from './gemini-cli.mjs';
import { mcp } from './mcp.mjs';
import { toolEvents } from './tool-events.mjs';
import { writeSessions } from './write.mjs';

export { writeSessions } from './write.mjs';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const WRITER = [here('./write.mjs'), here('../gen-span-log.mjs')];

/** A JSONL generator of many sessions one after another: one run per session. */
const sessions = (generator, file) => ({
  ...generator,
  format: generator.id,
  ext: 'jsonl',
  sources: [here(file), ...WRITER],
  write: async (path, bytes, seed) => {
    const counts = await writeSessions(path, generator, bytes, seed);
    return { ...counts, runs: counts.sessions };
  },
});

/** A one-document generator of bench/formats/documents.mjs; named apart from a JSONL row of the same format. */
const document = (format) => ({
  id: format === 'gemini-cli' || format === 'mcp' ? `${format}-document` : format,
  format,
  baseline: 'document',
  ext: 'json',
  sources: [here('./documents.mjs')],
  write: async (path, bytes) => writeDocument(format, path, bytes),
});

export const GENERATORS = [
  sessions(claudeCode, './claude-code.mjs'),
  sessions(codex, './codex.mjs'),
  sessions(geminiCli, './gemini-cli.mjs'),
  sessions(toolEvents, './tool-events.mjs'),
  sessions(mcp, './mcp.mjs'),
  ...DOCUMENT_FORMATS.map(document),
  ...BIG_GENERATORS,
];
