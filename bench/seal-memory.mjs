#!/usr/bin/env node
// Seals a generated span log of ~N MB with the built CLI (dist/cli.js) and
// reports the peak resident memory of the sealing process, next to the same
// measure for an input ten times smaller and for a bare `--version`: bounded
// (streamed) sealing shows about the same peak for both sizes.
//
//   npm run build && node bench/seal-memory.mjs [--mb 100]
//
// Files go to bench/out/ (ignored by git). Everything is measured in this one run.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OUT = join(ROOT, 'bench', 'out');
// Loaded before the CLI in the child: prints the process's peak RSS when it exits.
const REPORT_RSS = "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nmaxrss_kb='+process.resourceUsage().maxRSS+'\\n'))";

/** Writes a deterministic span log (llm, tool_call, tool_result spans with payloads) of about `bytes` bytes. */
export async function writeSpanLog(path, bytes) {
  let seed = 0x5eed;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const tools = ['read_file', 'search', 'write_file', 'run_command', 'http_get'];
  const out = createWriteStream(path);
  let written = 0;
  let n = 0;
  while (written < bytes) {
    const lines = [];
    for (let k = 0; k < 500; k += 1, n += 1) {
      const run = `r_${Math.floor(n / 2000)}`;
      const ts = new Date(Date.UTC(2026, 8, 7) + n * 37).toISOString();
      const tool = tools[Math.floor(rand() * tools.length)];
      const call = `c_${n}`;
      const text = 'lorem ipsum dolor sit amet é 世界 '.repeat(1 + Math.floor(rand() * 40));
      lines.push(JSON.stringify({ ts, run_id: run, span_id: `s${n}a`, kind: 'llm', duration_ms: Math.floor(rand() * 900) }));
      lines.push(JSON.stringify({ ts, run_id: run, span_id: `s${n}b`, kind: 'tool_call', call_id: call, tool, args: { path: `src/${n}.ts`, limit: n % 50, score: rand() }, deadline_ms: 2000 }));
      lines.push(JSON.stringify({ ts, run_id: run, span_id: `s${n}c`, kind: 'tool_result', call_id: call, tool, result: { ok: rand() > 0.1, text }, http_status: 200 }));
    }
    const chunk = `${lines.join('\n')}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return statSync(path).size;
}

/** Runs the CLI in a child process; returns its exit code, wall time and peak RSS in MiB. */
export function measure(args) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--import', REPORT_RSS, CLI, ...args], { cwd: OUT, encoding: 'utf8', maxBuffer: 1 << 20 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const match = /maxrss_kb=(\d+)/.exec(child.stderr ?? '');
  if (!match) throw new Error(`no RSS reported for ${args.join(' ')}: ${child.stderr}`);
  return { code: child.status, seconds, rssMiB: Number(match[1]) / 1024, stdout: child.stdout };
}

export async function sealMemoryBench({ mb = 100 } = {}) {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  const bigBytes = await writeSpanLog(join(OUT, 'spans-big.jsonl'), mb * 1024 * 1024);
  const smallBytes = await writeSpanLog(join(OUT, 'spans-small.jsonl'), (mb * 1024 * 1024) / 10);
  const idle = measure(['--version']);
  const small = measure(['seal', 'spans-small.jsonl', '-o', 'spans-small.sealed.jsonl', '--force']);
  const big = measure(['seal', 'spans-big.jsonl', '-o', 'spans-big.sealed.jsonl', '--force']);
  const verify = measure(['verify', 'spans-big.sealed.jsonl', '--checkpoint', 'spans-big.sealed.jsonl.seal.json']);
  for (const [name, run, want] of [['seal small', small, 0], ['seal big', big, 0], ['verify big', verify, 0]]) {
    if (run.code !== want) throw new Error(`${name} exited ${run.code}, expected ${want}`);
  }
  return { mb, bigBytes, smallBytes, sealedBytes: statSync(join(OUT, 'spans-big.sealed.jsonl')).size, idle, small, big, verify };
}

function print(r) {
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  const row = (name, run, bytes) =>
    `${name.padEnd(28)} peak RSS ${run.rssMiB.toFixed(1).padStart(7)} MiB   ${run.seconds.toFixed(2).padStart(6)} s${bytes ? `   ${(bytes / 1024 / 1024 / run.seconds).toFixed(1)} MiB/s` : ''}`;
  console.log(`seal memory: span log of ${mib(r.bigBytes)} MiB (sealed ${mib(r.sealedBytes)} MiB), and ${mib(r.smallBytes)} MiB for comparison`);
  console.log(row('node + CLI, --version', r.idle));
  console.log(row(`seal ${mib(r.smallBytes)} MiB`, r.small, r.smallBytes));
  console.log(row(`seal ${mib(r.bigBytes)} MiB`, r.big, r.bigBytes));
  console.log(row(`verify ${mib(r.sealedBytes)} MiB + checkpoint`, r.verify, r.sealedBytes));
  console.log(`ratio peak RSS seal big / seal small: ${(r.big.rssMiB / r.small.rssMiB).toFixed(2)} for ${(r.bigBytes / r.smallBytes).toFixed(1)}x the input`);
  console.log(`peak RSS above the idle CLI: seal big +${(r.big.rssMiB - r.idle.rssMiB).toFixed(1)} MiB, verify big +${(r.verify.rssMiB - r.idle.rssMiB).toFixed(1)} MiB`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--mb');
  const mb = at === -1 ? 100 : Number(process.argv[at + 1]);
  if (!Number.isFinite(mb) || mb <= 0) throw new Error('--mb needs a positive number');
  print(await sealMemoryBench({ mb }));
}
