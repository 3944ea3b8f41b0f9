import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../src/audit/secrets/fingerprint.js';
import { renderJson } from '../../src/report/render/json.js';
import { renderMarkdown } from '../../src/report/render/markdown.js';
import { renderText } from '../../src/report/render/text.js';
import { reportOfFiles, judgedAlone } from '../helpers.js';
import { anySecret, filler, type SecretSample } from '../secret-samples.js';

/** Where a generated secret goes: which dialect, call or result, in which JSON shape, escaped or not. */
interface Placement {
  readonly sample: SecretSample;
  readonly dialect: 'span' | 'event';
  readonly part: 'args' | 'result' | 'tool';
  readonly shape: 'plain' | 'nested' | 'content-array' | 'json-string';
  readonly escape: boolean;
  readonly before: string;
  readonly after: string;
  /** Also write the secret on a line that fits no dialect (its excerpt goes into a malformed-record message). */
  readonly malformed: boolean;
}

const placement: fc.Arbitrary<Placement> = fc.record({
  sample: anySecret,
  dialect: fc.constantFrom('span' as const, 'event' as const),
  part: fc.constantFrom('args' as const, 'result' as const, 'tool' as const),
  shape: fc.constantFrom('plain' as const, 'nested' as const, 'content-array' as const, 'json-string' as const),
  escape: fc.boolean(),
  before: filler,
  after: filler,
  malformed: fc.boolean(),
});

function shaped(p: Placement): unknown {
  const text = `${p.before} ${p.sample.text} ${p.after}`;
  switch (p.shape) {
    case 'plain':
      return text;
    case 'nested':
      return { data: { note: text, rows: 2 } };
    case 'content-array':
      return [{ type: 'text', text }];
    case 'json-string':
      return JSON.stringify({ message: text });
  }
}

/** Two JSONL lines (call and result) with the secret in one of them. */
function linesOf(p: Placement, i: number): string {
  const value = shaped(p);
  const args = p.part === 'args' ? { input: value } : { input: 'ls' };
  const output = p.part === 'result' ? value : 'ok';
  const tool = p.part === 'tool' ? `t ${p.sample.text}` : `tool_${i}`;
  const records: object[] =
    p.dialect === 'span'
      ? [
          { run_id: 'r', kind: 'tool_call', call_id: `c${i}`, tool, args },
          { run_id: 'r', kind: 'tool_result', call_id: `c${i}`, tool, result: output },
        ]
      : [
          { type: 'tool_call', tool_call_id: `c${i}`, name: tool, arguments: args },
          { type: 'tool_result', tool_call_id: `c${i}`, name: tool, output },
        ];
  if (p.malformed) records.push({ note: p.sample.text });
  return records
    .map((record) => {
      const line = JSON.stringify(record);
      if (!p.escape || p.shape === 'json-string') return line;
      // Write the secret's first character as a JSON \u escape: only a decoded scan sees it.
      const head = p.sample.text.slice(0, 8);
      const code = `\\u${p.sample.text.charCodeAt(0).toString(16).padStart(4, '0')}`;
      return line.replace(head, code + head.slice(1));
    })
    .join('\n');
}

describe('reports never show a secret from the trace, and secret-in-trace reports each one', () => {
  it('JSON, text and markdown reports (property, fixed seed)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(placement, { minLength: 1, maxLength: 4 }), async (placements) => {
        const trace = `${placements.map((p, i) => linesOf(p, i)).join('\n')}\n`;
        const report = await reportOfFiles({ 'trace.jsonl': trace });
        const outputs = [renderJson(report), renderText(report), renderMarkdown(report, judgedAlone(report))];
        const messages = report.findings.filter((f) => f.ruleId === 'secret-in-trace').map((f) => f.message);
        placements.forEach((p, i) => {
          for (const output of outputs) {
            expect(output).not.toContain(p.sample.hidden);
            expect(output).not.toContain(p.sample.fingerprinted);
          }
          const where = { args: 'arguments', result: 'result', tool: 'tool name' }[p.part];
          const expected = `${p.sample.ruleId} in ${where} of call 'c${i}' at `;
          const fp = `(fingerprint ${secretFingerprint(p.sample.fingerprinted)})`;
          expect(messages.some((m) => m.startsWith(expected) && m.endsWith(fp)), `${expected}… ${fp} in ${JSON.stringify(messages)}`).toBe(true);
        });
      }),
      { seed: 20261129, numRuns: 150 },
    );
  }, 60_000);
});
