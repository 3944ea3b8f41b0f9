import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { readZip } from '../artifacts/read-zip.js';
import { parseOutputs } from '../run-action.js';
import { pushToMain, useActionHarness } from '../support/action-harness.js';

// mode: listen with the bundled Action run as the runner runs it: a listen step, a step
// whose suite exports spans with the real OTLP protobuf exporter to the endpoint read from
// the GITHUB_ENV file, then an audit step that stops the receiver and audits, seals and
// uploads what it received. The post step stops a receiver no audit step stopped.
const SUITE = resolve('test/receiver/fixtures/genai-suite.mjs');
const harness = useActionHarness();

/** One job: the runner's GITHUB_ENV and GITHUB_STATE files, shared by its steps. */
function job(runId: number) {
  const files = tempDir('ata-job-');
  const workspace = tempDir('ata-ws-');
  const envFile = join(files, 'env');
  const stateFile = join(files, 'state');
  writeFileSync(envFile, '');
  writeFileSync(stateFile, '');
  const exported = () => parseOutputs(readFileSync(envFile, 'utf8'));
  const step = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
    harness.run(runId, { comment: 'false', ...inputs }, { workspace, ...pushToMain(), env: { GITHUB_ENV: envFile, GITHUB_STATE: stateFile, ...exported(), ...env } });
  /** The listen step's post step: the runner hands it the state the main step saved. */
  const post = (saved: Record<string, string>) => step({ mode: 'listen' }, Object.fromEntries(Object.entries(saved).map(([k, v]) => [`STATE_${k}`, v])));
  return { workspace, step, post, exported, savedState: () => parseOutputs(readFileSync(stateFile, 'utf8')) };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('mode: listen (bundled action)', () => {
  it('listen, a suite exporting over OTLP/protobuf, audit: the received spans are audited, sealed and uploaded', async () => {
    const j = job(301);
    const listen = await j.step({ mode: 'listen', 'listen-port': '0' });
    expect(listen.code).toBe(0);
    const env = j.exported();
    expect(env['OTEL_EXPORTER_OTLP_ENDPOINT']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']).toBe(`${env['OTEL_EXPORTER_OTLP_ENDPOINT']}/v1/traces`);
    expect(env['OTEL_EXPORTER_OTLP_PROTOCOL']).toBe('http/protobuf');
    expect(listen.outputs['otlp-endpoint']).toBe(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
    const state = JSON.parse(readFileSync(env['AGENT_TRACE_AUDIT_RECEIVER']!, 'utf8')) as { pid: number };
    expect(alive(state.pid)).toBe(true);

    // The suite's step: a plain `run:` step with the job's environment.
    const suite = spawnSync(process.execPath, [SUITE, 'proto'], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' });
    expect(suite.status, suite.stderr).toBe(0);

    const audit = await j.step({ mode: 'audit', traces: '' });
    expect(audit.stdout).toContain('OTLP receiver: received 4 span(s) in 1 request(s)');
    expect(audit.stdout).toContain('found 1 trace file(s): 1 otlp-json');
    expect(audit.outputs).toMatchObject({ conclusion: 'failure', findings: '3', errors: '1', warnings: '2', notes: '0' });
    expect(alive(state.pid)).toBe(false);
    const artifact = harness.gh.artifacts.find((a) => a.runId === 301)!;
    const files = readZip(await harness.azurite.read(artifact.blob));
    const manifest = JSON.parse(files.get('seal-manifest.json')!.toString('utf8')) as { files: Array<{ file: string; sealed: string }> };
    expect(manifest.files.map((f) => f.file)).toEqual(['otlp-receiver/otlp-spans.jsonl']);
    const sealed = files.get(manifest.files[0]!.sealed)!.toString('utf8');
    for (const spanId of ['0000000000000001', '0000000000000002', '0000000000000003', '0000000000000004']) expect(sealed).toContain(`"spanId":"${spanId}"`);
    const report = JSON.parse(files.get('agent-trace-audit-report.json')!.toString('utf8')) as { findings: Array<{ ruleId: string; callId: string | null; file: string }> };
    expect(report.findings.map((f) => [f.ruleId, f.callId, f.file]).sort()).toEqual([
      ['internal-detail-leak', 'c2', 'otlp-receiver/otlp-spans.jsonl'],
      ['orphan-call', 'c3', 'otlp-receiver/otlp-spans.jsonl'],
      ['stack-trace-in-result', 'c2', 'otlp-receiver/otlp-spans.jsonl'],
    ]);
    // The listen step's post step finds its receiver stopped and does nothing.
    const post = await j.post(j.savedState());
    expect(post.code).toBe(0);
    expect(post.stdout).not.toContain('stopped the OTLP receiver');
  }, 120_000);

  it('a job with no audit step: the post step stops the receiver (no orphan process)', async () => {
    const j = job(302);
    expect((await j.step({ mode: 'listen', 'listen-port': '0' })).code).toBe(0);
    const state = JSON.parse(readFileSync(j.exported()['AGENT_TRACE_AUDIT_RECEIVER']!, 'utf8')) as { pid: number };
    expect(alive(state.pid)).toBe(true);
    const post = await j.post(j.savedState());
    expect(post.code).toBe(0);
    expect(post.stdout).toContain('stopped the OTLP receiver of the listen step: no audit step stopped it; it had received 0 span(s) in 0 request(s), never audited');
    expect(alive(state.pid)).toBe(false);
  }, 60_000);

  it('a port in use fails the listen step with one line', async () => {
    const j = job(303);
    const first = await j.step({ mode: 'listen', 'listen-port': '0' });
    const port = new URL(first.outputs['otlp-endpoint']!).port;
    const second = job(304);
    const clash = await second.step({ mode: 'listen', 'listen-port': port });
    expect(clash.code).toBe(1);
    expect(clash.stdout).toContain(`::error::receiver-not-started: the OTLP receiver did not start: receiver-port-in-use: port ${port} on 127.0.0.1 is in use; stop what holds it or pass --port <another>`);
    await j.post(j.savedState());
  }, 60_000);
});
