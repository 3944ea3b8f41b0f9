import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { batches, MAX_CHECK_ANNOTATIONS, orderForReview, planAnnotations } from '../../src/report/render/check-annotations.js';
import { checkSummaryTail, checkTitle } from '../../src/report/render/check-summary.js';
import { reportSchema, type Report } from '../../src/report/schema.js';

// The golden report of `examples/` (10 findings: 3 errors, 2 warnings, 5 notes; see the listing in each test).
const examples = reportSchema.parse(JSON.parse(readFileSync('test/fixtures/golden/examples.json', 'utf8')));
const at = (r: { path: string; start_line: number; title: string }) => `${r.title} ${r.path.replace('examples/dirty/', '')}:${r.start_line}`;

describe('check-run annotations', () => {
  it('most severe first, report order within a severity', () => {
    const plan = planAnnotations(examples, { cap: 1000 });
    expect(plan.annotations.map(at)).toEqual([
      'orphan-call span-log-orphan.jsonl:2',
      'secret-in-trace span-log-secret-in-trace.jsonl:1',
      'unmatched-result typed-events-unmatched.jsonl:4',
      'payload-mutation boundary-payload-mutation.jsonl:2',
      'continued-while-outstanding span-log-orphan.jsonl:2',
      'catalog-missing boundary-payload-mutation.jsonl:1',
      'catalog-missing span-log-orphan.jsonl:2',
      'catalog-missing span-log-secret-in-trace.jsonl:1',
      'unused-tool typed-events-unmatched.jsonl:1',
      'unused-tool typed-events-unmatched.jsonl:1',
    ]);
    expect(plan.annotations.map((a) => a.annotation_level)).toEqual(['failure', 'failure', 'failure', 'warning', 'warning', 'notice', 'notice', 'notice', 'notice', 'notice']);
    expect(plan).toMatchObject({ notInRepository: [], overCap: 0 });
  });

  it('within a severity, findings new against the base branch come first', () => {
    // The base branch already had the orphan call and the unmatched result (by fingerprint): the secret is new.
    const base = new Set(['81cc18c4ddeaf384', '6c1ed58a51b78239', '2d091e60fea1dd3b']);
    const ordered = orderForReview(examples.findings, base);
    expect(ordered.slice(0, 5).map((f) => f.ruleId)).toEqual(['secret-in-trace', 'orphan-call', 'unmatched-result', 'continued-while-outstanding', 'payload-mutation']);
  });

  it('the cap keeps the most severe and counts the rest; the cap itself is bounded', () => {
    const plan = planAnnotations(examples, { cap: 4 });
    expect(plan.annotations.map((a) => a.title)).toEqual(['orphan-call', 'secret-in-trace', 'unmatched-result', 'payload-mutation']);
    expect(plan.overCap).toBe(6);
    expect(planAnnotations(examples, { cap: 0 }).annotations).toEqual([]);
    expect(MAX_CHECK_ANNOTATIONS).toBe(5000);
  });

  it('files read from an artifact, absolute or outside the workspace are set apart for the summary', () => {
    const moved = (file: string, i: number) => ({ ...examples.findings[i]!, file });
    const report: Report = {
      ...examples,
      artifacts: [{ name: 'agent-traces-1', id: 7, digest: 'sha256:00', files: 1 }],
      findings: [moved('agent-traces-1/run/a.jsonl', 4), moved('/tmp/x.jsonl', 6), moved('../elsewhere.jsonl', 9), moved('C:\\traces\\a.jsonl', 1), moved('agent-traces-10/a.jsonl', 0)],
    };
    const plan = planAnnotations(report, { cap: 10 });
    expect(plan.notInRepository.map((f) => f.file)).toEqual(['agent-traces-1/run/a.jsonl', '/tmp/x.jsonl', '../elsewhere.jsonl', 'C:\\traces\\a.jsonl']);
    expect(plan.annotations.map((a) => a.path)).toEqual(['agent-traces-10/a.jsonl']);
    const tail = checkSummaryTail(plan, 5);
    expect(tail[0]).toBe('**Annotations:** 1 of 5 finding(s), most severe first.');
    expect(tail).toContain("| error | `orphan-call` | `agent-traces-1/run/a.jsonl:2` | `call 'c_9' to 'web_search' has no result (the model kept generating afterwards)` |");
  });

  it('trace text is sanitized: a secret in a message or path is redacted, controls and bidi characters removed; line 0 becomes line 1', () => {
    const f = { ...examples.findings[0]!, file: 'traces/a\u202e.jsonl', line: 0, message: 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked\u0007' };
    const [annotation] = planAnnotations({ ...examples, findings: [f] }, { cap: 1 }).annotations;
    expect(annotation).toMatchObject({ path: 'traces/a.jsonl', start_line: 1, end_line: 1, message: 'token [REDACTED:github-token] leaked' });
  });

  it('the list of findings outside the repository stays within its share of the summary and counts what it leaves out', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ ...examples.findings[4]!, file: `agent-traces-1/f${i}.jsonl` }));
    const report: Report = { ...examples, artifacts: [{ name: 'agent-traces-1', id: 1, digest: 'sha256:00', files: 2000 }], findings: many };
    const tail = checkSummaryTail(planAnnotations(report, { cap: 1000 }), 2000);
    const listed = tail.filter((line) => line.startsWith('| error |')).length;
    expect(tail.join('\n').length).toBeLessThanOrEqual(12_100);
    expect(listed).toBeGreaterThan(50);
    expect(tail.at(-1)).toBe(`_${2000 - listed} more not listed here; the JSON report has them all._`);
  });

  it('batches of at most 50, in order', () => {
    const items = Array.from({ length: 123 }, (_, i) => i);
    expect(batches(items).map((b) => b.length)).toEqual([50, 50, 23]);
    expect(batches(items).flat()).toEqual(items);
    expect(batches([])).toEqual([]);
  });

  it('the title is the one-line verdict, cut at the Checks API limit', () => {
    expect(checkTitle('❌ 3 new errors (97 errors in all)')).toBe('❌ 3 new errors (97 errors in all)');
    const long = `⚠️ partly read (2 of 40 files) · ${'x'.repeat(300)}`;
    expect([...checkTitle(long)].length).toBe(255);
    expect(checkTitle(long).endsWith('…')).toBe(true);
  });
});
