// The per-format rows' inputs and arithmetic: each generator's file at a size, written
// once and kept in bench/out/ for the same generator sources, size and seed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SEED = 42;
export const MB = 1_000_000;

/** Writes `generator`'s file of `size` MB unless the same sources, size and seed already wrote it; returns its path and counts. */
export async function input(out, generator, size) {
  const path = join(out, `format-${generator.id}-${size}mb.${generator.ext}`);
  const sources = createHash('sha256').update(generator.sources.map((file) => readFileSync(file)).join('\n')).digest('hex');
  const params = JSON.stringify({ id: generator.id, size, seed: SEED, sources });
  const stamp = `${path}.params`;
  if (!existsSync(path) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== params) {
    const started = Date.now();
    const counts = await generator.write(path, size * MB, SEED);
    writeFileSync(stamp, params);
    writeFileSync(`${path}.counts`, JSON.stringify(counts));
    console.log(`generated ${generator.id} ${size} MB in ${((Date.now() - started) / 1000).toFixed(1)} s: ${counts.runs} runs, ${counts.calls} calls`);
  }
  return { path, counts: JSON.parse(readFileSync(`${path}.counts`, 'utf8')) };
}

/** The bare parse loop a generator's rows are compared with: JSONL line by line, or the document whole. */
export const baselineScript = (root, generator) => join(root, 'bench', generator.baseline === 'lines' ? 'baseline-parse.mjs' : 'formats/baseline-document.mjs');

/** The audit's arguments: the JSON report to `report`, never failing on findings. */
export const auditArgs = (cli, path, report) => [cli, 'audit', path, '--format', 'json', '--fail-on', 'never', '-o', report];

export const round3 = (x) => Math.round(x * 1000) / 1000;
export const mib = (bytes) => round3(bytes / 1024 / 1024);
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export function numberOption(argv, name, fallback) {
  const at = argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive whole number`);
  return value;
}
