import { describe, expect, it } from 'vitest';
import { renderWithinBudget } from '../../src/report/render/budget.js';
import { jsonl, reportOfFiles } from '../helpers.js';

// Every run has calls and no catalog record, so each of the 7 runs (fewer when
// there are fewer calls) adds one catalog-missing note to the orphan-call errors.
async function report(calls: number) {
  const records = Array.from({ length: calls }, (_, i) => ({ run_id: `r${i % 7}`, span_id: `s${i}`, kind: 'tool_call', call_id: `c${i}`, tool: `tool_${'x'.repeat(i % 50)}` }));
  return reportOfFiles({ 'a.jsonl': jsonl(...records) });
}

/** Every table line is a whole row: starts and ends with a pipe. */
function tablesIntact(markdown: string): boolean {
  return markdown.split('\n').filter((l) => l.startsWith('|')).every((l) => l.endsWith('|'));
}

describe('renderWithinBudget', () => {
  it('keeps everything when it fits', async () => {
    const r = await report(5);
    expect(r.summary.findings).toEqual({ error: 5, warning: 0, note: 5 });
    const out = renderWithinBudget(r, 65_536, { head: ['head line'], tail: ['<!-- m -->'] });
    expect(out).toMatchObject({ findingsShown: 10, rowsShown: 2 });
    expect(out.markdown).not.toContain('Not shown here');
    expect(out.markdown.endsWith('<!-- m -->\n')).toBe(true);
  });

  it.each([20_000, 5_000, 2_500, 1_200])('degrades detail to fit %i characters, whole lines only, and says what was cut', async (limit) => {
    const r = await report(400);
    expect(r.summary.findings).toEqual({ error: 400, warning: 0, note: 7 });
    const out = renderWithinBudget(r, limit, { tail: ['<!-- m -->'] });
    expect(out.markdown.length).toBeLessThanOrEqual(limit);
    expect(out.findingsShown).toBeLessThan(407);
    expect(tablesIntact(out.markdown)).toBe(true);
    expect(out.markdown).toContain(`${407 - out.findingsShown} of 407 finding(s)`);
    expect(out.markdown.endsWith('<!-- m -->\n')).toBe(true);
    // More room, more detail: the search takes the largest count that fits.
    expect(renderWithinBudget(r, limit * 2, { tail: ['<!-- m -->'] }).findingsShown).toBeGreaterThan(out.findingsShown);
  });

  it('falls back to a short valid note when even the head does not fit', async () => {
    const r = await report(3);
    const out = renderWithinBudget(r, 200, { head: ['x'.repeat(500)], tail: ['<!-- m -->'] });
    expect(out.markdown).toBe('## agent-trace-audit\n\nThe report did not fit in 200 characters; it is in the JSON report.\n\n<!-- m -->\n');
  });
});
