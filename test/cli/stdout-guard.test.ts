import { describe, expect, it } from 'vitest';
import { guardMessages, jsonPieces, writeJson, type CliIO } from '../../src/cli/io.js';
import { liveCommandLines } from '../hostile/outputs/hostile-text.js';

/** A CLI io writing to strings, stdout a pipe, a terminal, or a file. */
function io(stdout: 'pipe' | 'terminal' | 'file'): { io: CliIO; out: () => string } {
  let out = '';
  const given: CliIO = {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: '/',
    env: {},
    stdoutIsTerminal: stdout === 'terminal',
    stdoutFile: stdout === 'file' ? '/tmp/report.md' : null,
  };
  return { io: guardMessages(given), out: () => out };
}

const TEXT = 'finding\n::add-mask::x\nsee ##[error]y\n';
const JSON_TEXT = `${JSON.stringify({ message: 'a ##[add-mask]b ###[c', tool: '\n::error::x' }, null, 2)}\n`;

describe('CLI stdout and the workflow-command guard', () => {
  it('a pipe (a run: step): text is wrapped in stop-commands; JSON keeps its value with ##[ written #\\u0023[', () => {
    const text = io('pipe');
    text.io.stdout(TEXT);
    expect(text.out()).toMatch(/^::stop-commands::[0-9a-f]{32}\nfinding\n/);
    expect(liveCommandLines(text.out())).toEqual([]);
    const json = io('pipe');
    writeJson(json.io, JSON_TEXT);
    expect(liveCommandLines(json.out())).toEqual([]);
    expect(json.out()).not.toContain('##[');
    expect(JSON.parse(json.out())).toEqual(JSON.parse(JSON_TEXT));
    expect([...jsonPieces(json.io, ['{"a": "##[x"', '}'])].join('')).toBe('{"a": "#\\u0023[x"}');
  });

  it('a terminal or a file stdout was redirected to: written as is (the runner reads neither)', () => {
    for (const kind of ['terminal', 'file'] as const) {
      const text = io(kind);
      text.io.stdout(TEXT);
      writeJson(text.io, JSON_TEXT);
      expect(text.out(), kind).toBe(TEXT + JSON_TEXT);
    }
  });
});
