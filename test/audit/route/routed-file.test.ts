import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runAudit, type AuditInput } from '../../../src/audit/engine/engine.js';
import { runAuditPool } from '../../../src/audit/engine/pool.js';
import { resolveConfig, type ConfigFile } from '../../../src/config/config.js';
import { buildReport } from '../../../src/report/build.js';
import { renderJsonPieces } from '../../../src/report/render/json.js';
import { tempTree } from '../../helpers.js';
import { corpusFile, corpusHas, manifest } from '../../public-corpus.js';

/** The bundle the workers start: the real dist/cli.js (`npm test` builds it first). */
const ENTRY = pathToFileURL(resolve('dist/cli.js'));

async function report(inputs: AuditInput[], configFile: ConfigFile, jobs: number, routed: Array<[string, number]> = []): Promise<string> {
  const config = resolveConfig(configFile);
  const stored =
    jobs === 1
      ? await runAudit(inputs, config)
      : await runAuditPool(inputs, config, { jobs, entry: ENTRY, poolMinBytes: 0, routeMinBytes: 0, onRouted: (display, fallbacks) => routed.push([display, fallbacks]) });
  try {
    return [...renderJsonPieces(buildReport(stored, config))].join('');
  } finally {
    stored.store.close();
  }
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Interleaved runs over several sweep windows, and every kind of line the router must place or leave to a parse. */
function craftedLog(): Buffer {
  let text = '\ufeff';
  for (let i = 0; i < 6000; i += 1) {
    const run = i % 7 === 0 && (i < 1000 || i > 4000) ? 'rlate' : `r${i % 13}`;
    if (i % 500 === 17) text += '\n\n   \n';
    if (i === 2500) text += '{"kind":"tool_call","args":{"run_id":"nested"},"run_id":"r3","call_id":"n1","tool":"grep"}\n';
    if (i === 2600) text += '{"run_id":"r\\u0034","kind":"tool_call","call_id":"e1","tool":"grep"}\n';
    if (i === 2700) text += '{"run_id":4,"kind":"tool_call","call_id":"num","tool":"grep"}\n{"run_id":"4","kind":"tool_result","call_id":"num","tool":"grep"}\n';
    if (i === 2800) text += '{"run_id" : "r5" , "kind" : "llm"}\r\n';
    if (i === 2900) text += 'not json at all\n[1,2]\n{"run_id":"r6","run_id":"r6","kind":"llm"}\n{"kind":"llm"}\n';
    if (i === 3000) text += 'NOT-UTF-8\n';
    if (i === 4000 && run !== 'rlate') continue;
    text += line({ ts: i * 10, run_id: run, span_id: `s${i}`, kind: 'tool_call', call_id: `c${i}`, tool: i % 3 === 0 ? 'grep' : 'read_file', args: { q: i % 5 } });
    if (i % 11 !== 0) text += line({ ts: i * 10 + 5, run_id: run, kind: 'tool_result', call_id: `c${i}`, tool: 'grep', ...(i % 9 === 0 ? { error: 'Traceback (most recent call last):\n  File "x.py", line 1' } : { result: { ok: true } }) });
  }
  const [before, after] = `${text}{"run_id":"rlate","kind":"llm","ts":1}`.split('NOT-UTF-8');
  return Buffer.concat([Buffer.from(before!), Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), Buffer.from(after!)]);
}

describe('one file routed over several threads', () => {
  it('gives the report one thread gives, byte for byte, for --jobs 2 and 4 (idle window, caps, odd lines)', async () => {
    const root = tempTree({});
    const path = join(root, 'crafted.jsonl');
    writeFileSync(path, craftedLog());
    const inputs = [{ path, display: 'crafted.jsonl' }];
    const configFile: ConfigFile = { limits: { 'run-idle-records': 700, 'max-findings-per-rule': 40 } };
    const one = await report(inputs, configFile, 1);
    const parsed = JSON.parse(one) as { summary: { runs: number }; findings: Array<{ ruleId: string; message: string }> };
    // The window splits the runs that pause (r-late) and the cap summarizes the rules past 40 findings.
    expect(parsed.summary.runs).toBeGreaterThan(14);
    expect(parsed.findings.some((f) => f.ruleId === 'run-split')).toBe(true);
    expect(parsed.findings.some((f) => f.message.includes('are not listed: a rule lists at most 40 per file'))).toBe(true);
    for (const jobs of [2, 4]) {
      const routed: Array<[string, number]> = [];
      expect(await report(inputs, configFile, jobs, routed)).toBe(one);
      // Placed by a parse: the nested key, the escaped and the numeric id, the two lines
      // that are not objects, the line without a run id and the one not UTF-8.
      expect(routed).toEqual([['crafted.jsonl', 7]]);
    }
  }, 120_000);

  it('cuts the same runs into the same parts on every thread layout (limits.max-run-records)', async () => {
    const root = tempTree({});
    const path = join(root, 'crafted.jsonl');
    writeFileSync(path, craftedLog());
    const inputs = [{ path, display: 'crafted.jsonl' }];
    const configFile: ConfigFile = { limits: { 'max-run-records': 300 } };
    const one = await report(inputs, configFile, 1);
    const parsed = JSON.parse(one) as { summary: { runs: number }; findings: Array<{ ruleId: string; message: string }> };
    // r0..r12 hold about 850 records each (three parts), rlate about 540 (two): one run-split each.
    expect(parsed.summary.runs).toBeGreaterThan(3 * 13);
    expect(parsed.findings.filter((f) => f.ruleId === 'run-split' && f.message.includes('limits.max-run-records'))).toHaveLength(14);
    for (const jobs of [2, 4]) expect(await report(inputs, configFile, jobs)).toBe(one);
  }, 120_000);

  it('every fixture in the repository: the same report at --jobs 1 and 3 with every file routed that can be', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(jsonl|ndjson|json|gz)$/.test(name)) files.push(path);
      }
    };
    walk(resolve('test/fixtures'));
    expect(files.length).toBeGreaterThan(20);
    // The public corpus too, where it is (test/public-corpus.ts).
    const inputsOf = (path: string) => [{ path, display: relative(resolve('.'), path) }];
    const all = [...files.map(inputsOf), ...[...manifest().keys()].filter((file) => corpusHas(file) && /\.(jsonl|ndjson|json|gz)$/.test(file)).map((file) => [{ path: corpusFile(file), display: file }])];
    let routedFiles = 0;
    for (const inputs of all) {
      const path = inputs[0]!.display;
      const one = await report(inputs, {}, 1);
      // Three threads: an odd layout (the crafted log above is checked at 2 and 4).
      const routed: Array<[string, number]> = [];
      expect(await report(inputs, {}, 3, routed), `${path} at --jobs 3`).toBe(one);
      routedFiles += routed.length;
    }
    console.log(`${all.length} fixtures, ${routedFiles} routed`);
    expect(routedFiles).toBeGreaterThan(10);
  }, 900_000);
});
