import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/report/render/text.js';
import type { Report } from '../../src/report/schema.js';
import { tempTree } from '../helpers.js';
import { runInProcess } from '../hostile/audit-cli.js';

const TOKEN = `ghp_${'a1B2'.repeat(9)}`;

/** A Codex rollout whose skipped event types are a token and text with a bidi override and a bell. */
function rollout(): string {
  const line = (second: number, type: string, payload: unknown) => JSON.stringify({ timestamp: `2025-01-04T09:00:0${second}.000Z`, type, payload });
  return [
    line(0, 'session_meta', { id: 's1', timestamp: '2025-01-04T09:00:00.000Z', cwd: '/x', originator: 'codex_cli_rs', cli_version: '0.77.0' }),
    line(1, 'event_msg', { type: TOKEN }),
    line(2, 'event_msg', { type: 'evil\u202e\u0007tpircs' }),
    line(3, 'event_msg', { type: 'evil\u202e\u0007tpircs' }),
  ].join('\n') + '\n';
}

describe('the text report names the records skipped per file', () => {
  it('one line per file with skips: the counts by reason and their first lines, sanitized', async () => {
    const root = tempTree({ 'rollout-x.jsonl': rollout(), 'clean.jsonl': `${JSON.stringify({ run_id: 'r1', kind: 'llm' })}\n` });
    const run = await runInProcess(['audit', 'clean.jsonl', 'rollout-x.jsonl', '--format', 'text', '--jobs', '1'], root);
    expect(run.stdout.split('\n').slice(0, 6)).toEqual([
      '⚠️ nothing audited: no tool call was read from 2 files',
      'agent-trace-audit 0.1.0: 2 file(s), 1 run(s), 0 tool call(s), 0 result(s)',
      'findings: 0 error(s), 0 warning(s), 2 note(s)',
      'skipped 3 record(s) of rollout-x.jsonl: 1 event_msg "[REDACTED:github-token]" (first at line 2); 2 event_msg "eviltpircs" (first at line 3)',
      // Every record of the rollout was left out: no record came out of it, so it is not read.
      'not read: rollout-x.jsonl: skipped: every record found was left out (read as codex-rollout)',
      '',
    ]);
    expect(run.stdout).not.toContain(TOKEN);
  });

  it('a report read back from elsewhere (merge) passes the sanitizer again before it is printed', () => {
    const report: Report = {
      schemaVersion: 1,
      tool: { name: 'agent-trace-audit', version: '0.1.0' },
      summary: { files: 1, runs: 0, toolCalls: 0, toolResults: 0, findings: { error: 0, warning: 0, note: 0 } },
      files: [{ path: 'a\u202eb.jsonl', format: 'codex-rollout', records: 0, runs: 0, skipped: [{ reason: `line \u001b[31m${TOKEN}`, count: 7, firstLine: 4 }] }],
      runs: [],
      rules: [],
      metrics: {},
      findings: [],
    };
    expect(renderText(report)).toBe(
      [
        'agent-trace-audit 0.1.0: 1 file(s), 0 run(s), 0 tool call(s), 0 result(s)',
        'findings: 0 error(s), 0 warning(s), 0 note(s)',
        'skipped 7 record(s) of ab.jsonl: 7 line [REDACTED:github-token] (first at line 4)',
        '',
        'No findings, and nothing was audited: no tool call was read.',
        '',
      ].join('\n'),
    );
  });
});
