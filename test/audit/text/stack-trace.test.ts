import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectStackTrace } from '../../../src/audit/text/stack-trace.js';
import { TRACE_FIXTURES } from '../../fixtures/stack-traces/table.js';

const read = (file: string) => readFileSync(`test/fixtures/stack-traces/${file}`, 'utf8');

describe('detectStackTrace on real traces', () => {
  it.each(TRACE_FIXTURES.map((f) => [f.file, f] as const))('%s', (file, fixture) => {
    const text = read(file);
    const found = detectStackTrace(text);
    expect(found && { language: found.language, frames: found.frames }).toEqual({ language: fixture.language, frames: fixture.frames });
    // Code-like text: between 1.5 and 5 characters a token (hex addresses are the dense end).
    expect(found!.tokens).toBeGreaterThan(found!.chars / 5);
    expect(found!.tokens).toBeLessThan(found!.chars / 1.5);
    expect(found!.chars).toBeGreaterThan(text.trim().length / 2);
  });

  it('covers every language at least once', () => {
    expect(new Set(TRACE_FIXTURES.map((f) => f.language)).size).toBe(7);
  });

  it('finds a trace with prose around it and CRLF line ends', () => {
    const text = `The update failed:\r\n${read('python-simple.txt').replace(/\n/g, '\r\n')}\r\nPlease retry later.`;
    expect(detectStackTrace(text)).toMatchObject({ language: 'python', frames: 4 });
  });

  it('reads a trace whose line breaks are escaped (a repr or a log line)', () => {
    // What Python's repr() of {'error': traceback_text} prints.
    const escaped = read('python-chained.txt').replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');
    const repr = `{'error': '${escaped}'}`;
    expect(repr).not.toContain('\n');
    expect(detectStackTrace(repr)).toMatchObject({ language: 'python', frames: 7 });
    expect(detectStackTrace('one line with a literal \\n in it')).toBeNull();
  });

  it("counts seed 002's block as the article does: 812 characters, ~280 tokens (estimate 275)", () => {
    // The traceback the article's support agent received, copied from the seed: frames,
    // exception line, and the DETAIL and CONTEXT lines under it, all re-read by the model.
    const block = read('../seeds/002-update-ticket-traceback.txt').trimEnd();
    const found = detectStackTrace(block);
    expect(found).toEqual({ language: 'python', frames: 4, chars: 812, tokens: 275 });
    expect(Math.abs(found!.tokens - 280) / 280).toBeLessThan(0.02);
  });

  it('measures the trace, not the prose around it', () => {
    const trace = read('java-caused-by.txt').trimEnd();
    const found = detectStackTrace(`${'Some words before. '.repeat(50)}\n${trace}\n${'And after. '.repeat(50)}`);
    expect(found).toMatchObject({ language: 'java', frames: 7, chars: trace.length });
  });
});

const NEAR_MISSES: readonly string[] = [
  'Read line 3 of the poem aloud.\nThen line 4, at your own pace.',
  'Let us meet at 5pm at the station.\n  at the north entrance\n  at the clock',
  'Schedule:\n  at 10:30:00 standup\n  at 11:45:00 review',
  '  at 10:30:00\n  at 11:45:00',
  'Error: file not found',
  'Error: file not found\nTry another path.',
  'See File "notes.txt", line 4, in the appendix.',
  'File "report.pdf", line 3, in chapter two',
  'Caused by: a burst pipe\n... 2 more incidents this week',
  'We met at Home.Depot(the big one)\n  at Kitchen.Sink(two taps)',
  'The goroutine count rose to 40.\nthread pool is saturated at peak.',
  'thread "main" finished\npanicked at nothing',
  'Config lives in config.yml:3:in production\nand nothing else',
  'Exception handling is covered in chapter 7:\n  at the end of the chapter there are exercises',
  'Timeline\n- at 09:00 deploy\n- at 09:05 rollback (see log.txt:12:4)',
  '| step | at |\n| --- | --- |\n| build | 12:00 |',
];

describe('detectStackTrace on near misses', () => {
  it.each(NEAR_MISSES.map((t) => [t] as const))('%j is not a trace', (text) => {
    expect(detectStackTrace(text)).toBeNull();
  });
});

describe('detectStackTrace on hostile input', () => {
  // Each of these took seconds to minutes with backtracking patterns; linear ones take milliseconds.
  it.each([
    ['.NET-like frames', ('   at ' + 'a.'.repeat(995) + '(\n').repeat(1000)],
    ['bare JS-like frames', ('   at ' + 'a.'.repeat(995) + ':1\n').repeat(1000)],
    ['Java-like frames', ('   at ' + 'a.'.repeat(995) + '(x\n').repeat(1000)],
    ['one huge line', '   at ' + 'a.'.repeat(500_000) + '(\nx'],
  ])('%s: 2 MB in well under a second', (_name, text) => {
    const start = performance.now();
    expect(detectStackTrace(text)).toBeNull();
    expect(performance.now() - start).toBeLessThan(1500);
  });
});
