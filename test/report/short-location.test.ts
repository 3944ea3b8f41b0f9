import { describe, expect, it } from 'vitest';
import { shortLocation } from '../../src/report/triage.js';
import { renderText } from '../../src/report/render/text.js';
import { jsonl, reportOfFiles } from '../helpers.js';

describe('shortLocation', () => {
  it('leaves a location that fits alone', () => {
    expect(shortLocation('a/b.jsonl:12', 60)).toBe('a/b.jsonl:12');
    expect(shortLocation('x'.repeat(60), 60)).toBe('x'.repeat(60));
  });

  it('cuts from the left, starting at a folder, and keeps file:line', () => {
    const loc = '../recordings/corpus/claude-code/claude-code-log-edge-cases.jsonl:104';
    expect(shortLocation(loc, 40)).toBe('…/claude-code-log-edge-cases.jsonl:104');
    expect(shortLocation(loc, 52)).toBe('…/claude-code/claude-code-log-edge-cases.jsonl:104');
    expect([...shortLocation(loc, 52)].length).toBeLessThanOrEqual(52);
  });

  it('keeps a file name and line longer than the width whole', () => {
    const name = `${'n'.repeat(70)}.jsonl:3`;
    expect(shortLocation(`deep/folder/${name}`, 60)).toBe(`…/${name}`);
  });

  it('leaves a long location with no folder alone', () => {
    expect(shortLocation(`${'n'.repeat(70)}.jsonl:3`, 60)).toBe(`${'n'.repeat(70)}.jsonl:3`);
    expect(shortLocation(`/${'n'.repeat(70)}.jsonl:3`, 60)).toBe(`/${'n'.repeat(70)}.jsonl:3`);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(shortLocation(`${'😀'.repeat(10)}/a.jsonl:1`, 20)).toBe(`${'😀'.repeat(10)}/a.jsonl:1`);
  });
});

describe('the text table', () => {
  it('shows a long location from its right end, with file and line', async () => {
    const deep = 'recordings/nightly-2026-09-07/agent-suite/claude-code/session-with-a-long-name.jsonl';
    const report = await reportOfFiles({ [deep]: jsonl({ run_id: 'r', kind: 'tool_call', call_id: 'c', tool: 'grep' }) });
    const rows = renderText(report).split('\n').filter((line) => line.startsWith('error '));
    expect(rows).toEqual([
      `error     orphan-call      …/agent-suite/claude-code/session-with-a-long-name.jsonl:1  r    c     call 'c' to 'grep' has no result (nothing followed it in the run)`,
    ]);
  });
});

describe('a location outside the working folder', () => {
  it('is never cut to `…../`: the kept end starts at a folder name', () => {
    const outside = '../../../../recorded/suite/agentbench/medagentbench-deepseekv3-runs.jsonl:1';
    for (let max = 10; max <= outside.length; max += 1) {
      const shown = shortLocation(outside, max);
      expect(shown).not.toMatch(/^…\.|^…\/\./);
      expect(shown.endsWith('medagentbench-deepseekv3-runs.jsonl:1')).toBe(true);
    }
    expect(shortLocation('../../x/run.jsonl:3', 17)).toBe('…/x/run.jsonl:3');
  });
});
