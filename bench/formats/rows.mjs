// The per-format rows of `npm run bench`: for each generator of bench/formats/, a file at
// 1x and 2x `--format-size` MB (default 100), audited by dist/cli.js next to the bare parse
// loop on the same bytes (bench/baseline-parse.mjs for JSONL, baseline-document.mjs for a
// document), interleaved in `--format-repeat` rounds (default 1); prints wall time over the
// baseline, peak RSS and the 2x/1x RSS ratio; `--format-500` adds a 500 MB row per format.
// Targets (issue 22): peak RSS <= 250 MiB, 2x/1x within 0.8-1.2, time <= 3x the baseline.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { GENERATORS, writeSessions } from './index.mjs';

const SEED = 42;
const MB = 1_000_000;

function numberOption(argv, name, fallback) {
  const at = argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive whole number`);
  return value;
}

/** Writes a generator's file unless the same generator, size and seed already wrote it. */
async function input(root, out, generator, size) {
  const path = join(out, `format-${generator.id}-${size}mb.${generator.baseline === 'lines' ? 'jsonl' : 'json'}`);
  const dir = join(root, 'bench', 'formats');
  // The generators' sources (not this file's or the baselines'): a change to one writes the files anew.
  const sources = readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'rows.mjs' && !f.startsWith('baseline-')).sort();
  const params = JSON.stringify({ id: generator.id, size, seed: SEED, generators: createHash('sha256').update(sources.map((f) => readFileSync(join(dir, f))).join('\n')).digest('hex') });
  const stamp = `${path}.params`;
  if (!existsSync(path) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== params) {
    const counts = await writeSessions(path, generator, size * MB, SEED);
    writeFileSync(stamp, params);
    writeFileSync(`${path}.counts`, JSON.stringify(counts));
    console.log(`generated ${generator.id} ${size} MB: ${counts.sessions} sessions, ${counts.lines} lines, ${counts.calls} calls`);
  }
  return { path, counts: JSON.parse(readFileSync(`${path}.counts`, 'utf8')) };
}

const round3 = (x) => Math.round(x * 1000) / 1000;
const mib = (bytes) => round3(bytes / 1024 / 1024);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * Measures every format; `once(args, codes)` is the bench's runner (node with the RSS
 * probe: wall seconds and peak RSS bytes). Returns the rows for bench/results.json.
 */
export async function formatRows({ once, root, cli, out, argv }) {
  const size = numberOption(argv, 'format-size', 100);
  const repeat = numberOption(argv, 'format-repeat', 1);
  const sizes = argv.includes('--format-500') ? [size, size * 2, 500] : [size, size * 2];
  // Every rule off (the ids from the committed config schema): the reading floor under each audit's time.
  const ruleIds = Object.keys(JSON.parse(readFileSync(join(root, 'agent-trace-audit.schema.json'), 'utf8')).properties.rules.properties);
  const rulesOff = join(out, 'format-rules-off.yml');
  writeFileSync(rulesOff, `rules:\n${ruleIds.map((id) => `  ${id}: off\n`).join('')}`);
  const loadAverageBefore = loadavg().map(round3);
  const rows = {};
  for (const generator of GENERATORS) {
    const files = [];
    for (const s of sizes) files.push({ size: s, ...(await input(root, out, generator, s)) });
    const baselineScript = join(root, 'bench', generator.baseline === 'lines' ? 'baseline-parse.mjs' : 'formats/baseline-document.mjs');
    const rounds = [];
    for (let r = 0; r < repeat; r += 1) {
      const audit = (path) => [cli, 'audit', path, '--format', 'json', '--fail-on', 'never', '-o', join(out, `format-${generator.id}.report.json`)];
      const round = { baseline: await once([baselineScript, files[0].path], [0]), rulesOff: await once([...audit(files[0].path), '--config', rulesOff], [0]) };
      for (const file of files) round[file.size] = await once(audit(file.path), [0]);
      rounds.push(round);
      const line = files.map((f) => `${f.size} MB ${round[f.size].seconds.toFixed(2)} s ${mib(round[f.size].rss).toFixed(1)} MiB`).join(', ');
      console.log(`  round ${r + 1}/${repeat} ${generator.id.padEnd(14)} baseline ${round.baseline.seconds.toFixed(2)} s; rules off ${round.rulesOff.seconds.toFixed(2)} s; audit ${line}`);
    }
    const [one, two] = files;
    const row = {
      baseline: `node ${baselineScript.slice(root.length + 1)} <${one.size} MB file>`,
      files: Object.fromEntries(files.map((f) => [`${f.size}MB`, { bytes: statSync(f.path).size, sessions: f.counts.sessions, lines: f.counts.lines, calls: f.counts.calls }])),
      baselineSeconds: round3(median(rounds.map((x) => x.baseline.seconds))),
      auditSeconds: Object.fromEntries(files.map((f) => [`${f.size}MB`, round3(median(rounds.map((x) => x[f.size].seconds)))])),
      peakRssMiB: Object.fromEntries(files.map((f) => [`${f.size}MB`, mib(median(rounds.map((x) => x[f.size].rss)))])),
      timeOverBaseline: round3(median(rounds.map((x) => x[one.size].seconds / x.baseline.seconds))),
      // Not a target: the audit with every rule off over the baseline (reading and records alone).
      rulesOffTimeOverBaseline: round3(median(rounds.map((x) => x.rulesOff.seconds / x.baseline.seconds))),
      rss2xOver1x: round3(median(rounds.map((x) => x[two.size].rss / x[one.size].rss))),
    };
    const maxRss = Math.max(...Object.values(row.peakRssMiB));
    row.targets = {
      timeOverBaseline: { max: 3, met: row.timeOverBaseline <= 3 },
      peakRssMiB: { max: 250, met: maxRss <= 250 },
      rss2xOver1x: { range: [0.8, 1.2], met: row.rss2xOver1x >= 0.8 && row.rss2xOver1x <= 1.2 },
    };
    rows[generator.id] = row;
  }
  return { sizesMB: sizes, repeat, seed: SEED, loadAverageBefore, loadAverageAfter: loadavg().map(round3), rows };
}

/** Prints the rows as a table with the targets. */
export function printFormatRows({ sizesMB, rows }) {
  const mark = (ok) => (ok ? 'ok ' : 'MISS');
  console.log('');
  console.log(`per format (files of ${sizesMB.join(' / ')} MB): audit / bare parse loop, peak RSS, RSS 2x / 1x (targets <= 3x, <= 250 MiB, 0.8-1.2)`);
  for (const [id, row] of Object.entries(rows)) {
    const rss = Object.values(row.peakRssMiB).map((v) => v.toFixed(1)).join(' / ');
    const t = row.targets;
    console.log(`  ${id.padEnd(14)} ${mark(t.timeOverBaseline.met)} ${row.timeOverBaseline.toFixed(2)}x (${row.auditSeconds[`${sizesMB[0]}MB`].toFixed(2)} s vs ${row.baselineSeconds.toFixed(2)} s; rules off ${row.rulesOffTimeOverBaseline.toFixed(2)}x)  ${mark(t.peakRssMiB.met)} ${rss} MiB  ${mark(t.rss2xOver1x.met)} ${row.rss2xOver1x.toFixed(2)}`);
  }
}
