import { describe, expect, it } from 'vitest';
import { unreadLines } from '../../src/report/comment/unread-lines.js';
import type { Coverage, UnreadFile } from '../../src/report/verdict/coverage.js';

const coverage = (unread: UnreadFile[], notTraces: Coverage['notTraces'] = []): Coverage => ({
  files: unread.length + 1,
  read: 1,
  unread,
  partlyRead: 0,
  notTraces,
  records: 4,
  toolCalls: 2,
  toolResults: 2,
  skipped: 0,
});

describe('the first screen lists the trace files not read, one line each', () => {
  it('up to 8 open, with the reason and the format that claimed the file; the files that are not traces apart', () => {
    const lines = unreadLines(
      coverage(
        [
          { path: 'traces/a.json', reason: 'unknown-format' },
          { path: 'traces/b.yaml', reason: 'skipped', format: 'openai', toolShaped: 3 },
        ],
        [{ path: 'traces/README.md', reason: 'text that is not JSON or YAML' }],
      ),
    );
    expect(lines).toEqual([
      '',
      '**2 of 3 trace files not read (1 unknown format, 1 skipped):**',
      '',
      '- `traces/a.json`: unknown format: no format reads it',
      '- `traces/b.yaml`: skipped: every record found was left out (read as `openai`); it holds 3 tool-shaped place(s)',
      '',
      '**1 file matched that is not a trace (not counted):**',
      '',
      '- `traces/README.md`: text that is not JSON or YAML',
    ]);
    expect(unreadLines(coverage([]))).toEqual([]);
  });

  it('collapsed past 8, at most 50 listed; names sanitized again (bidi, backticks, secrets)', () => {
    const many: UnreadFile[] = Array.from({ length: 60 }, (_, i) => ({ path: `t/${String(i).padStart(2, '0')}.json`, reason: 'unknown-format' }));
    const lines = unreadLines(coverage(many));
    expect(lines.slice(0, 3)).toEqual(['', '<details><summary>60 of 61 trace files not read (60 unknown format)</summary>', '']);
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(50);
    expect(lines.slice(-4)).toEqual(['', '_10 more in the JSON report (`verdict.coverage.unread`)._', '', '</details>']);
    const hostile = unreadLines(coverage([{ path: 'a\u202e`b`<img src=x>.json', reason: 'no-records', format: 'x`y' }]));
    expect(hostile[3]).toBe('- ``a`b`<img src=x>.json``: no records came out of it (read as ``x`y``)');
  });
});
