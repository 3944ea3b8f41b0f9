import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../../src/report/schema.js';
import { tempDir } from '../../../helpers.js';
import { runInProcess } from '../../../hostile/audit-cli.js';

/** A suite that posts two OTLP/JSON exports: three valid spans, then one request of 60,000 empty spans (over the cap). */
const SUITE = `
const url = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
const span = (i) => ({ traceId: '0'.repeat(31) + '1', spanId: '0'.repeat(15) + i, name: 'execute_tool t' + i, startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } }, { key: 'gen_ai.tool.name', value: { stringValue: 't' } }] });
const body = (spans) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const post = (spans) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body(spans) });
const ok = await post([span(1), span(2), span(3)]);
const big = await post(Array.from({ length: 60000 }, () => ({})));
console.error('statuses', ok.status, big.status);
`;

describe('receiver-loss', () => {
  it('a request over the span cap is refused (413), nothing of it kept, and the audit of the spool says so', async () => {
    const cwd = tempDir('ata-loss-');
    const run = await runInProcess(['run', '--port', '0', '--format', 'json', '--jobs', '1', '--fail-on', 'never', '--', process.execPath, '--input-type=module', '-e', SUITE], cwd, { PATH: process.env['PATH'] ?? '' });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: refused a request to /v1/traces: 413 the request holds more than 50000 spans, the most the receiver takes in one request; send smaller batches\n');
    expect(run.stderr).toContain('warning: received 3 span(s) in 2 request(s); not kept: 1 request(s) refused\n');
    const report = reportSchema.parse(JSON.parse(run.stdout));
    const losses = report.findings.filter((f) => f.ruleId === 'receiver-loss');
    expect(losses.map((f) => [f.file, f.line, f.severity, f.message])).toEqual([
      ['otlp-receiver/otlp-spans.jsonl', 0, 'warning', 'the OTLP receiver received 3 span(s) in 2 request(s); not kept: 1 request(s) refused'],
    ]);
    expect(report.summary.toolCalls).toBe(3);
  }, 60_000);

  it('nothing lost: no finding', async () => {
    const cwd = tempDir('ata-loss-');
    const suite = SUITE.replace('const big = await post(Array.from({ length: 60000 }, () => ({})));', 'const big = ok;');
    const run = await runInProcess(['run', '--port', '0', '--format', 'json', '--jobs', '1', '--fail-on', 'never', '--', process.execPath, '--input-type=module', '-e', suite], cwd, { PATH: process.env['PATH'] ?? '' });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('received 3 span(s) in 1 request(s)\n');
    const report = reportSchema.parse(JSON.parse(run.stdout));
    expect(report.findings.filter((f) => f.ruleId === 'receiver-loss')).toEqual([]);
    expect(report.summary.toolCalls).toBe(3);
  }, 60_000);
});
