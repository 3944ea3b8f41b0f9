import { describe, expect, it } from 'vitest';
import { annotate, type AnnotationSink } from '../../src/github/annotations.js';
import type { Finding } from '../../src/model/finding.js';

function finding(i: number, severity: Finding['severity'], file = 'a.jsonl'): Finding {
  return { ruleId: 'orphan-call', severity, message: `m${i}`, file, line: i, runId: null, callId: null, tool: null, fingerprint: i.toString(16).padStart(16, '0') };
}

describe('annotate', () => {
  it('shows up to 8 per level (2 kept for our own warnings) and says how many were not shown', () => {
    const seen: string[] = [];
    const sink: AnnotationSink = {
      error: (m, p) => seen.push(`error ${m} ${p.file}:${p.startLine}`),
      warning: (m) => seen.push(`warning ${m}`),
      notice: (m) => seen.push(`notice ${m}`),
      info: (m) => seen.push(`info ${m}`),
    };
    const findings = [...Array.from({ length: 12 }, (_, i) => finding(i + 1, 'error')), finding(20, 'note'), finding(0, 'warning')];
    expect(annotate(findings, sink)).toBe(4);
    expect(seen.filter((s) => s.startsWith('error')).length).toBe(8);
    expect(seen[0]).toBe('error m1 a.jsonl:1');
    expect(seen).toContain('notice m20');
    expect(seen).toContain('warning m0');
    expect(seen.at(-1)).toBe('info 4 finding(s) not shown as annotations (8 per level, max-annotations; GitHub shows 10 per level per step); all are in the job summary and the JSON report.');
  });

  it('orders by severity, then new before old, then path; max-annotations caps each level', () => {
    const seen: string[] = [];
    const push = (level: string) => (m: string, p: { title?: string; file?: string; startLine?: number }) => seen.push(`${level} ${p.title} ${p.file}:${p.startLine} ${m}`);
    const sink: AnnotationSink = { error: push('error'), warning: push('warning'), notice: push('notice'), info: (m) => seen.push(`info ${m}`) };
    const findings = [finding(1, 'note', 'a.jsonl'), finding(2, 'warning', 'b.jsonl'), finding(3, 'error', 'c.jsonl'), finding(4, 'error', 'a.jsonl'), finding(5, 'error', 'b.jsonl'), finding(6, 'warning', 'a.jsonl')];
    const added = new Set([findings[2]!.fingerprint, findings[1]!.fingerprint]);
    expect(annotate(findings, sink, { perLevel: 2, added })).toBe(1);
    expect(seen).toEqual([
      'error orphan-call (new in this PR) c.jsonl:3 m3',
      'error orphan-call a.jsonl:4 m4',
      'warning orphan-call (new in this PR) b.jsonl:2 m2',
      'warning orphan-call a.jsonl:6 m6',
      'notice orphan-call a.jsonl:1 m1',
      'info 1 finding(s) not shown as annotations (2 per level, max-annotations; GitHub shows 10 per level per step); all are in the job summary and the JSON report.',
    ]);
  });
});
