// The per-format rows of `npm run bench`: for each generator of bench/formats/index.mjs
// (the JSONL session logs, the one-document exports, the OTLP, Jaeger and OpenAI forms), a
// file at 1x and 2x `--format-size` MB (default 50), audited by dist/cli.js next to the
// bare parse loop on the same bytes (bench/baseline-parse.mjs for JSONL,
// baseline-document.mjs for a document) and the audit with every rule off, interleaved in
// `--format-repeat` rounds (default 1); prints wall time over the baseline, peak RSS and
// the 2x/1x RSS ratio. `--format-500` adds a 500 MB file per format; `--format-ids a,b`
// measures only those rows (the others are kept from bench/results.json); `--format-huge`
// adds the 2 GB OTLP JSONL and 1 GB OTLP document runs (bench/formats/huge.mjs).
// Targets (issue 22): peak RSS <= 250 MiB, 2x/1x within 0.8-1.2, time <= 3x the baseline.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { GENERATORS } from './index.mjs';
import { auditArgs, baselineScript, input, MB, median, mib, numberOption, round3, SEED } from './files.mjs';
import { hugeRows, printHugeRows } from './huge.mjs';

/** The generators `--format-ids` names (all without it); an unknown id is an error. */
function chosen(argv) {
  const at = argv.indexOf('--format-ids');
  if (at === -1) return GENERATORS;
  const ids = String(argv[at + 1] ?? '').split(',');
  const unknown = ids.filter((id) => !GENERATORS.some((g) => g.id === id));
  if (unknown.length > 0) throw new Error(`--format-ids: no generator ${unknown.join(', ')} (there are ${GENERATORS.map((g) => g.id).join(', ')})`);
  return GENERATORS.filter((g) => ids.includes(g.id));
}

/** The rounds of one generator's files: the baseline and the rules-off audit on the 1x file, the audit on each. */
async function measure({ once, root, cli, out }, generator, files, repeat, rulesOff) {
  const report = join(out, `format-${generator.id}.report.json`);
  const baseline = baselineScript(root, generator);
  const rounds = [];
  for (let r = 0; r < repeat; r += 1) {
    const round = { baseline: await once([baseline, files[0].path], [0]), rulesOff: await once([...auditArgs(cli, files[0].path, report), '--config', rulesOff], [0]) };
    for (const file of files) round[file.size] = await once(auditArgs(cli, file.path, report), [0]);
    rounds.push(round);
    const line = files.map((f) => `${f.size} MB ${round[f.size].seconds.toFixed(2)} s ${mib(round[f.size].rss).toFixed(1)} MiB`).join(', ');
    console.log(`  round ${r + 1}/${repeat} ${generator.id.padEnd(19)} baseline ${round.baseline.seconds.toFixed(2)} s; rules off ${round.rulesOff.seconds.toFixed(2)} s; audit ${line}`);
  }
  return rounds;
}

/** One row of bench/results.json from its rounds (each ratio within a round, then the median). */
function row(root, generator, files, rounds, loadBefore) {
  const [one, two] = files;
  const of = (pick) => round3(median(rounds.map(pick)));
  const result = {
    format: generator.format,
    baseline: `node ${baselineScript(root, generator).slice(root.length + 1)} <${one.size} MB file>`,
    files: Object.fromEntries(files.map((f) => [`${f.size}MB`, { bytes: statSync(f.path).size, runs: f.counts.runs, calls: f.counts.calls, results: f.counts.results }])),
    baselineSeconds: of((x) => x.baseline.seconds),
    auditSeconds: Object.fromEntries(files.map((f) => [`${f.size}MB`, of((x) => x[f.size].seconds)])),
    peakRssMiB: Object.fromEntries(files.map((f) => [`${f.size}MB`, mib(median(rounds.map((x) => x[f.size].rss)))])),
    timeOverBaseline: of((x) => x[one.size].seconds / x.baseline.seconds),
    // Not a target: the audit with every rule off over the baseline (reading and records alone).
    rulesOffTimeOverBaseline: of((x) => x.rulesOff.seconds / x.baseline.seconds),
    rss2xOver1x: of((x) => x[two.size].rss / x[one.size].rss),
    loadAverage: [loadBefore, round3(loadavg()[0])],
  };
  const maxRss = Math.max(...Object.values(result.peakRssMiB));
  result.targets = {
    timeOverBaseline: { max: 3, met: result.timeOverBaseline <= 3 },
    peakRssMiB: { max: 250, met: maxRss <= 250 },
    rss2xOver1x: { range: [0.8, 1.2], met: result.rss2xOver1x >= 0.8 && result.rss2xOver1x <= 1.2 },
  };
  return result;
}

/**
 * Measures every format (or those of `--format-ids`); `once(args, codes)` is the bench's
 * runner (node with the RSS probe: wall seconds, peak RSS bytes, exit code); `previous`
 * is bench/results.json's `formats` (rows and huge runs this run does not measure are kept).
 */
export async function formatRows({ once, root, cli, out, argv, previous }) {
  const size = numberOption(argv, 'format-size', 50);
  const repeat = numberOption(argv, 'format-repeat', 1);
  const sizes = argv.includes('--format-500') ? [size, size * 2, 500] : [size, size * 2];
  // The document baseline reads its 1x file into one string: V8's longest is 2^29 - 24 characters.
  if (size * MB > 2 ** 29 - 24 && chosen(argv).some((g) => g.baseline === 'document')) throw new Error(`--format-size ${size}: a document's parse loop cannot read ${size} MB whole (V8's longest string); at most 536`);
  // Every rule off (the ids from the committed config schema): the reading floor under each audit's time.
  const ruleIds = Object.keys(JSON.parse(readFileSync(join(root, 'agent-trace-audit.schema.json'), 'utf8')).properties.rules.properties);
  const rulesOff = join(out, 'format-rules-off.yml');
  writeFileSync(rulesOff, `rules:\n${ruleIds.map((id) => `  ${id}: off\n`).join('')}`);
  const loadAverageBefore = loadavg().map(round3);
  const started = Date.now();
  const rows = {};
  for (const generator of chosen(argv)) {
    const files = [];
    for (const s of sizes) files.push({ size: s, ...(await input(out, generator, s)) });
    const loadBefore = round3(loadavg()[0]);
    const rounds = await measure({ once, root, cli, out }, generator, files, repeat, rulesOff);
    rows[generator.id] = row(root, generator, files, rounds, loadBefore);
  }
  const huge = argv.includes('--format-huge') ? await hugeRows({ once, root, cli, out }) : previous?.huge;
  const measured = { sizesMB: sizes, repeat, seed: SEED, loadAverageBefore, loadAverageAfter: loadavg().map(round3), minutes: round3((Date.now() - started) / 60_000) };
  // Rows in the registry's order; those not measured now are the previous run's.
  const merged = Object.fromEntries(GENERATORS.map((g) => [g.id, rows[g.id] ?? previous?.rows?.[g.id]]).filter(([, r]) => r !== undefined));
  return { ...measured, rows: merged, ...(huge === undefined ? {} : { huge }) };
}

/** Prints the rows as a table with the targets. */
export function printFormatRows({ sizesMB, rows, huge }) {
  const mark = (ok) => (ok ? 'ok ' : 'MISS');
  console.log('');
  console.log(`per format (files of ${sizesMB.join(' / ')} MB): audit / bare parse loop, peak RSS, RSS 2x / 1x (targets <= 3x, <= 250 MiB, 0.8-1.2)`);
  for (const [id, r] of Object.entries(rows)) {
    const sizes = Object.keys(r.peakRssMiB);
    const rss = Object.values(r.peakRssMiB).map((v) => v.toFixed(1)).join(' / ');
    const t = r.targets;
    console.log(`  ${id.padEnd(19)} ${mark(t.timeOverBaseline.met)} ${r.timeOverBaseline.toFixed(2)}x (${r.auditSeconds[sizes[0]].toFixed(2)} s vs ${r.baselineSeconds.toFixed(2)} s; rules off ${r.rulesOffTimeOverBaseline.toFixed(2)}x)  ${mark(t.peakRssMiB.met)} ${rss} MiB  ${mark(t.rss2xOver1x.met)} ${r.rss2xOver1x.toFixed(2)}  (${sizes.join('/')}, load ${r.loadAverage?.join('→') ?? '?'})`);
  }
  if (huge) printHugeRows(huge);
}
