import { describe, expect, it } from 'vitest';
import { annotate, type AnnotationSink } from '../../src/github/annotations.js';
import type { Finding } from '../../src/model/finding.js';

function finding(i: number, severity: Finding['severity']): Finding {
  return { ruleId: 'orphan-call', severity, message: `m${i}`, file: 'a.jsonl', line: i, runId: null, callId: null, tool: null, fingerprint: '0123456789abcdef' };
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
    expect(seen.at(-1)).toBe('info 4 finding(s) not shown as annotations (GitHub shows 10 per level per step); all are in the job summary and the JSON report.');
  });
});
