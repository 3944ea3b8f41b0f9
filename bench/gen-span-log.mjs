// Writes a deterministic span log for the benchmark: RUNS runs × CALLS calls, each call an
// llm span, a tool_call and (unless it is one of the ~0.1% orphans) a tool_result; ~4% of
// results are errors. Same seed, same bytes. With `python: true`, the same records written
// as Python's json.dumps writes them by default (separators ', ' and ': '), the style of
// the seeds' own generators. Usage: node bench/gen-span-log.mjs out.jsonl [runs] [calls] [--python]
import { createWriteStream } from 'node:fs';

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = ['read_file', 'grep', 'web_search', 'run_tests', 'list_dir', 'write_file'];
const ERRORS = [
  { error_class: 'UpstreamError', http_status: 503, error: { code: 'upstream_unavailable', message: 'search backend unavailable' } },
  { error_class: 'Timeout', error: { code: 'internal_error', message: 'deadline exceeded' } },
  { error_class: 'ValueError', error: 'invalid literal for int() with base 10' },
];

/** A JSON value as Python's json.dumps writes it by default: ', ' between items, ': ' after keys (ASCII data). */
export function pythonDumps(value) {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}

export async function generate(path, runs = 2000, calls = 250, seed = 42, { python = false } = {}) {
  const rand = mulberry32(seed);
  const style = python ? (text) => text.split('\n').map((line) => (line === '' ? '' : pythonDumps(JSON.parse(line)))).join('\n') : (text) => text;
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let lines = 0;
  let buffer = '';
  const flush = async (force) => {
    if (buffer.length < 1 << 20 && !force) return;
    if (!out.write(style(buffer))) await new Promise((r) => out.once('drain', r));
    buffer = '';
  };
  let ts = Date.UTC(2026, 8, 7, 9, 0, 0);
  for (let r = 0; r < runs; r += 1) {
    const run = `run-${String(r).padStart(5, '0')}`;
    for (let c = 0; c < calls; c += 1) {
      const tool = TOOLS[Math.floor(rand() * TOOLS.length)];
      const call = `c${c}`;
      const arg = Math.floor(rand() * 1000);
      ts += 40 + Math.floor(rand() * 200);
      buffer += `{"ts":${ts},"run_id":"${run}","span_id":"l${c}","kind":"llm","tokens":${Math.floor(rand() * 800)}}\n`;
      ts += 5;
      buffer += `{"ts":${ts},"run_id":"${run}","span_id":"t${c}","kind":"tool_call","call_id":"${call}","tool":"${tool}","args":{"path":"src/module_${arg}.py","limit":${arg % 50}},"deadline_ms":5000}\n`;
      lines += 2;
      if (rand() < 0.001) continue; // orphan
      ts += 20 + Math.floor(rand() * 400);
      const failed = rand() < 0.04;
      const body = failed
        ? JSON.stringify(ERRORS[Math.floor(rand() * ERRORS.length)]).slice(1, -1)
        : `"result":{"ok":true,"bytes":${Math.floor(rand() * 90000)},"head":"def handler(event):"}`;
      buffer += `{"ts":${ts},"run_id":"${run}","span_id":"r${c}","kind":"tool_result","call_id":"${call}","tool":"${tool}",${body}}\n`;
      lines += 1;
      await flush(false);
    }
  }
  await flush(true);
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, runs, calls] = process.argv.slice(2).filter((arg) => arg !== '--python');
  if (!path) {
    console.error('usage: node bench/gen-span-log.mjs out.jsonl [runs] [calls]');
    process.exit(2);
  }
  const lines = await generate(path, Number(runs ?? 2000), Number(calls ?? 250), 42, { python: process.argv.includes('--python') });
  console.log(`wrote ${lines} lines to ${path}`);
}
