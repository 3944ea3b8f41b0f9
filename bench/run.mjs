#!/usr/bin/env node
// `npm run bench`: the scale benchmark of issue 8. Generates its inputs (deterministic
// seed) into bench/out/, runs every command several times with the built CLI
// (dist/cli.js; `npm run build` first), and prints median wall time, peak RSS and the
// ratios the targets are stated in (each the median of the rounds' own ratios), the
// audit's time at --jobs 1, 2 and 4, and two ceilings that bound those ratios here (the
// audit with every rule off, and two baselines side by side).
// Ratios compare commands measured in this one run, on this machine, so a noisy
// machine moves both sides. Writes bench/results.json.
//
//   npm run build && npm run bench [-- --repeat 3 --runs 2000 --calls 250]
// Per-format rows (bench/formats/rows.mjs): [--format-size 50 --format-repeat 1 --format-500
// --format-ids a,b --format-huge | --no-formats | --only formats | --only huge]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, availableParallelism, loadavg, totalmem, platform, arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './gen-span-log.mjs';
import { measureReceiver } from './receiver-row.mjs';
import { formatRows, printFormatRows } from './formats/rows.mjs';
import { hugeRows, printHugeRows } from './formats/huge.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const OUT = join(ROOT, 'bench', 'out');
const PROBE = join(ROOT, 'bench', 'rss-probe.mjs');
const BASELINE = join(ROOT, 'bench', 'baseline-parse.mjs');
const RESULTS = join(ROOT, 'bench', 'results.json');
const SEED = 42;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive whole number`);
  return value;
}
const REPEAT = option('repeat', 3);
const RUNS = option('runs', 2000);
const CALLS = option('calls', 250);
const POOL_FILES = option('pool-files', 4);

/** Writes the span log unless the same parameters already wrote it (same seed, same bytes). */
async function input(name, runs, calls, seed, python = false) {
  const path = join(OUT, name);
  const stamp = `${path}.params`;
  const params = JSON.stringify({ runs, calls, seed, python, generator: digest(readFileSync(join(ROOT, 'bench', 'gen-span-log.mjs'))) });
  if (!existsSync(path) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== params) {
    const lines = await generate(path, runs, calls, seed, { python });
    writeFileSync(stamp, params);
    console.log(`generated ${name}: ${lines} lines, ${mib(statSync(path).size)} MiB`);
  }
  return path;
}

function digest(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/**
 * Runs `node <args>` once with the RSS probe, or `copies` of it started together (side
 * by side, to see what a second busy core costs); returns the wall seconds until all
 * ended, the largest peak RSS of one process, and the first copy's exit code and stderr.
 */
async function once(args, expectCodes, copies = 1) {
  const rssFiles = Array.from({ length: copies }, (_, i) => join(OUT, `rss-${i}.txt`));
  for (const file of rssFiles) rmSync(file, { force: true });
  const started = process.hrtime.bigint();
  const [{ code, stderr }] = await Promise.all(rssFiles.map((rssFile) => run(args, rssFile, expectCodes)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Worker threads share the process: its peak RSS covers them.
  const rss = Math.max(...rssFiles.flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').map(Number)));
  return { seconds, rss, code, stderr };
}

function run(args, rssFile, expectCodes) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PROBE, ...args], {
      cwd: ROOT,
      env: { ...process.env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      if (stderr.length < 2000) stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (expectCodes.includes(code)) resolve({ code, stderr });
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}`));
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * Measures each command REPEAT times, interleaved (a round runs every command once),
 * so a burst of load on the shared machine falls on all of them rather than one.
 */
async function measureAll(commands) {
  const samples = new Map(commands.map((c) => [c.name, []]));
  for (let round = 0; round < REPEAT; round += 1) {
    for (const command of commands) {
      const sample = await once(command.args, command.codes, command.copies);
      samples.get(command.name).push(sample);
      console.log(`  round ${round + 1}/${REPEAT} ${command.name.padEnd(22)} ${sample.seconds.toFixed(2).padStart(7)} s ${mib(sample.rss).padStart(7)} MiB`);
    }
  }
  const out = { rounds: samples };
  for (const command of commands) {
    const runs = samples.get(command.name);
    out[command.name] = {
      command: command.display,
      medianSeconds: round3(median(runs.map((r) => r.seconds))),
      medianPeakRssMiB: round3(median(runs.map((r) => r.rss)) / 1024 / 1024),
      maxPeakRssMiB: round3(Math.max(...runs.map((r) => r.rss)) / 1024 / 1024),
      seconds: runs.map((r) => round3(r.seconds)),
      peakRssMiB: runs.map((r) => round3(r.rss / 1024 / 1024)),
    };
  }
  return out;
}

const round3 = (x) => Math.round(x * 1000) / 1000;
const rel = (path) => path.slice(ROOT.length + 1);

/** The receiver row: 100,000 spans from the real OTLP exporter, spans per second and peak RSS. */
async function receiverRow() {
  const row = await measureReceiver({ root: ROOT, cli: CLI, probe: PROBE, out: OUT, spans: 100_000 });
  const lost = row.spans - row.received;
  console.log(`receive (OTLP/protobuf)  ${row.spans} spans in batches of 512: ${row.spansPerSecond} spans/s (${row.seconds.toFixed(2)} s), peak RSS ${row.peakRssMiB.toFixed(1)} MiB, ${lost === 0 ? 'none' : lost} lost`);
  if (lost !== 0) process.exitCode = 1;
  return row;
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  if (process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'receiver') {
    await receiverRow();
    return;
  }
  // The per-format rows (bench/formats/rows.mjs) or the huge files alone: the rest of bench/results.json is kept.
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (only === 'formats' || only === 'huge') {
    const kept = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
    let formats;
    if (only === 'huge') {
      formats = { ...kept.formats, huge: await hugeRows({ once, root: ROOT, cli: CLI, out: OUT }) };
      printHugeRows(formats.huge);
    } else {
      formats = await formatRows({ once, root: ROOT, cli: CLI, out: OUT, argv: process.argv, previous: kept.formats });
      printFormatRows(formats);
    }
    writeFileSync(RESULTS, `${JSON.stringify({ ...kept, formats }, null, 2)}\n`);
    return;
  }
  const loadBefore = loadavg();
  const big = await input('big.jsonl', RUNS, CALLS, SEED);
  const double = await input('big-2x.jsonl', RUNS * 2, CALLS, SEED);
  const python = await input('big-python.jsonl', RUNS, CALLS, SEED, true);
  const shards = [];
  for (let i = 0; i < POOL_FILES; i += 1) shards.push(await input(`shard-${i}.jsonl`, Math.ceil(RUNS / POOL_FILES), CALLS, SEED + 1 + i));
  const jobs = availableParallelism();
  const poolReport = (n) => join(OUT, `pool-jobs-${n}.json`);
  const bigReport = (n) => join(OUT, `big-jobs-${n}.json`);
  const audit = (file, n, out = join(OUT, 'audit.json')) => [CLI, 'audit', rel(file), '--format', 'json', '--fail-on', 'never', ...(n === undefined ? [] : ['--jobs', String(n)]), '-o', rel(out)];
  // Every rule off (the ids from the committed config schema): what reading, parsing and
  // normalizing cost before any rule runs, the floor under the audit's wall time.
  const ruleIds = Object.keys(JSON.parse(readFileSync(join(ROOT, 'agent-trace-audit.schema.json'), 'utf8')).properties.rules.properties);
  const rulesOff = join(OUT, 'rules-off.yml');
  writeFileSync(rulesOff, `rules:\n${ruleIds.map((id) => `  ${id}: off\n`).join('')}`);
  const baseline = { name: 'baseline', display: `node bench/baseline-parse.mjs ${rel(big)}`, args: [BASELINE, big], codes: [0] };
  const auditAt = (n) => ({ name: `audit-jobs-${n}`, display: `node dist/cli.js audit ${rel(big)} --format json --jobs ${n}`, args: audit(big, n, bigReport(n)), codes: [0] });
  const auditBig = { name: 'audit', display: `node dist/cli.js audit ${rel(big)} --format json (jobs = ${jobs} cores)`, args: audit(big, undefined, bigReport('default')), codes: [0] };
  const sideBySide = (command) => ({ ...command, name: `${command.name}-side-by-side`, display: `${command.display}, two at once`, copies: 2 });
  const commands = [
    baseline,
    auditBig,
    auditAt(1),
    auditAt(2),
    auditAt(4),
    { name: 'audit-rules-off', display: `${auditAt(1).display} --config <every rule off>`, args: [...audit(big, 1), '--config', rel(rulesOff)], codes: [0] },
    { name: 'baseline-python', display: `node bench/baseline-parse.mjs ${rel(python)}`, args: [BASELINE, python], codes: [0] },
    { name: 'audit-python', display: `node dist/cli.js audit ${rel(python)} --format json (Python's separators)`, args: audit(python), codes: [0] },
    sideBySide(baseline),
    { name: 'audit-2x', display: `node dist/cli.js audit ${rel(double)} --format json --jobs 1`, args: audit(double, 1), codes: [0] },
    { name: 'audit-2x-default', display: `node dist/cli.js audit ${rel(double)} --format json`, args: audit(double), codes: [0] },
    {
      name: 'pool-jobs-1',
      display: `node dist/cli.js audit <${POOL_FILES} shards> --jobs 1`,
      args: [CLI, 'audit', ...shards.map(rel), '--format', 'json', '--fail-on', 'never', '--jobs', '1', '-o', rel(poolReport(1))],
      codes: [0],
    },
    {
      name: 'pool-jobs-default',
      display: `node dist/cli.js audit <${POOL_FILES} shards> (jobs = ${jobs} cores)`,
      args: [CLI, 'audit', ...shards.map(rel), '--format', 'json', '--fail-on', 'never', '-o', rel(poolReport(jobs))],
      codes: [0],
    },
    {
      name: 'seal',
      display: `node dist/cli.js seal ${rel(big)} -o <sealed>`,
      // --force: every round replaces the sealed file of the round before.
      args: [CLI, 'seal', rel(big), '-o', rel(join(OUT, 'big.sealed.jsonl')), '--force'],
      codes: [0],
    },
  ];
  console.log(`measuring ${commands.length} commands × ${REPEAT} (load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')})`);
  const { rounds, ...results } = await measureAll(commands);
  // Each ratio within each round (its commands run back to back), then the median of
  // those: steadier than a ratio of medians when the load of the shared machine changes.
  const perRound = (a, b, key) => round3(median(rounds.get(a).map((x, i) => x[key] / rounds.get(b)[i][key])));
  const sameBytes = (paths) => paths.every((path) => digest(readFileSync(path)) === digest(readFileSync(paths[0])));
  const identical = sameBytes([poolReport(1), poolReport(jobs)]);
  const bigIdentical = sameBytes([bigReport(1), bigReport(2), bigReport(4), bigReport('default')]);
  const extraWorkers = Math.max(0, jobs - 1);
  const ratios = {
    auditTimeOverBaseline: perRound('audit', 'baseline', 'seconds'),
    auditJobs1TimeOverBaseline: perRound('audit-jobs-1', 'baseline', 'seconds'),
    auditJobs2TimeOverBaseline: perRound('audit-jobs-2', 'baseline', 'seconds'),
    auditJobs4TimeOverBaseline: perRound('audit-jobs-4', 'baseline', 'seconds'),
    pythonTimeOverBaseline: perRound('audit-python', 'baseline-python', 'seconds'),
    auditRss2xOver1x: perRound('audit-2x', 'audit-jobs-1', 'rss'),
    auditDefaultRss2xOver1x: perRound('audit-2x-default', 'audit', 'rss'),
    poolSpeedup: perRound('pool-jobs-1', 'pool-jobs-default', 'seconds'),
    poolReportsByteIdentical: identical,
    bigReportsByteIdentical: bigIdentical,
    sealRssOverAuditRss: round3(results.seal.medianPeakRssMiB / results['audit-jobs-1'].medianPeakRssMiB),
    // Not targets: the ceilings the targets sit under on this machine.
    rulesOffTimeOverBaseline: perRound('audit-rules-off', 'baseline', 'seconds'),
    baselineSideBySideSlowdown: perRound('baseline-side-by-side', 'baseline', 'seconds'),
  };
  const rssMax = 150 + 100 * extraWorkers;
  const targets = {
    auditTimeOverBaseline: { max: 2.0, met: ratios.auditTimeOverBaseline <= 2.0 && bigIdentical },
    auditJobs1TimeOverBaseline: { max: 2.4, met: ratios.auditJobs1TimeOverBaseline <= 2.4 },
    pythonTimeOverBaseline: { max: 2.5, met: ratios.pythonTimeOverBaseline <= 2.5 },
    auditJobs1PeakRssMiB: { max: 150, met: results['audit-jobs-1'].maxPeakRssMiB <= 150 },
    auditPeakRssMiB: { max: rssMax, met: results.audit.maxPeakRssMiB <= rssMax },
    auditRss2xOver1x: { range: [0.8, 1.2], met: [ratios.auditRss2xOver1x, ratios.auditDefaultRss2xOver1x].every((r) => r >= 0.8 && r <= 1.2) },
    poolSpeedup: { min: 1.6, met: ratios.poolSpeedup >= 1.6 && identical },
    sealPeakRssMiB: { max: 150, met: results.seal.maxPeakRssMiB <= 150 },
  };
  const cpu = cpus();
  const machine = {
    cpuModel: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    availableParallelism: jobs,
    totalMemMiB: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${platform()} ${arch()}`,
    loadAverageBefore: loadBefore.map(round3),
    loadAverageAfter: loadavg().map(round3),
  };
  const inputs = {
    seed: SEED,
    big: { runs: RUNS, calls: CALLS, bytes: statSync(big).size },
    double: { runs: RUNS * 2, calls: CALLS, bytes: statSync(double).size },
    python: { runs: RUNS, calls: CALLS, bytes: statSync(python).size },
    shards: { files: POOL_FILES, runs: Math.ceil(RUNS / POOL_FILES), calls: CALLS, bytes: shards.reduce((n, s) => n + statSync(s).size, 0) },
  };
  const receiver = await receiverRow();
  const previous = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')).formats : undefined;
  const formats = process.argv.includes('--no-formats') ? undefined : await formatRows({ once, root: ROOT, cli: CLI, out: OUT, argv: process.argv, previous });
  const document = { date: new Date().toISOString(), repeat: REPEAT, machine, inputs, results, ratios, targets, receiver, formats };
  writeFileSync(RESULTS, `${JSON.stringify(document, null, 2)}\n`);

  console.log('');
  console.log(`machine: ${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}; load ${machine.loadAverageBefore.join(' ')} → ${machine.loadAverageAfter.join(' ')}`);
  for (const [name, m] of Object.entries(results)) {
    console.log(`${name.padEnd(20)} median ${m.medianSeconds.toFixed(2).padStart(7)} s   peak RSS ${m.medianPeakRssMiB.toFixed(1).padStart(7)} MiB (max ${m.maxPeakRssMiB.toFixed(1)})`);
  }
  const mark = (ok) => (ok ? 'ok ' : 'MISS');
  const r = ratios;
  console.log('');
  console.log(`ratios: median over the rounds of each round's ratio (uptime load ${machine.loadAverageBefore.join(' ')} → ${machine.loadAverageAfter.join(' ')})`);
  console.log(`${mark(targets.auditTimeOverBaseline.met)} audit / baseline, default jobs (${jobs})  ${r.auditTimeOverBaseline.toFixed(2)}× (target ≤ 2.0×), reports at --jobs 1, 2, 4, default byte-identical: ${bigIdentical}`);
  console.log(`${mark(targets.auditJobs1TimeOverBaseline.met)} audit / baseline, --jobs 1           ${r.auditJobs1TimeOverBaseline.toFixed(2)}× (target ≤ 2.4×)`);
  console.log(`     audit / baseline, --jobs 2 and 4     ${r.auditJobs2TimeOverBaseline.toFixed(2)}×, ${r.auditJobs4TimeOverBaseline.toFixed(2)}×`);
  console.log(`${mark(targets.pythonTimeOverBaseline.met)} Python separators / their baseline   ${r.pythonTimeOverBaseline.toFixed(2)}× (target ≤ 2.5×)`);
  console.log(`${mark(targets.auditJobs1PeakRssMiB.met)} peak RSS --jobs 1                    ${results['audit-jobs-1'].maxPeakRssMiB.toFixed(1)} MiB (target ≤ 150)`);
  console.log(`${mark(targets.auditPeakRssMiB.met)} peak RSS default jobs                ${results.audit.maxPeakRssMiB.toFixed(1)} MiB (target ≤ ${rssMax}: 150 + 100 per extra worker)`);
  console.log(`${mark(targets.auditRss2xOver1x.met)} peak RSS 2× file / 1× file           ${r.auditRss2xOver1x.toFixed(2)} at --jobs 1, ${r.auditDefaultRss2xOver1x.toFixed(2)} at default (target 0.8–1.2)`);
  console.log(`${mark(targets.poolSpeedup.met)} pool speedup jobs=${jobs} / jobs=1 (${POOL_FILES} files) ${r.poolSpeedup.toFixed(2)}× (target ≥ 1.6×), reports byte-identical: ${identical}`);
  console.log(`${mark(targets.sealPeakRssMiB.met)} seal peak RSS                        ${results.seal.maxPeakRssMiB.toFixed(1)} MiB (target ≤ 150; ${r.sealRssOverAuditRss.toFixed(2)}× the audit's)`);
  console.log('');
  console.log(`ceilings on this machine (not targets):`);
  console.log(`  audit with every rule off / baseline        ${r.rulesOffTimeOverBaseline.toFixed(2)}× (reading, parsing, duplicate keys, records: the floor at --jobs 1)`);
  console.log(`  two baselines side by side / one            ${r.baselineSideBySideSlowdown.toFixed(2)}× as long (1.00: the second core costs nothing)`);
  if (formats) printFormatRows(formats);
  console.log('wrote bench/results.json');
}

await main();
