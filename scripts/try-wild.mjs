#!/usr/bin/env node
// The out-of-repository check (issue 18): audits public trace files that are NOT in the
// repository and compares each with the counts computed independently from the file
// (test/fixtures/wild-list.json). It fetches nothing: give it the folder where the files
// are, each at <folder>/<owner>+<name>/<path> (the repository's path, as in the list).
//
//   node scripts/try-wild.mjs <folder> [--list test/fixtures/wild-list.json] [--cli dist/cli.js] [--markdown]
//
// Prints one row per file (format, calls, results, orphans, malformed-record findings,
// expected vs found) and exits 1 when a file is missing or any count differs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const markdown = args.includes('--markdown');
if (markdown) args.splice(args.indexOf('--markdown'), 1);
const listPath = option('--list', 'test/fixtures/wild-list.json');
const cli = option('--cli', 'dist/cli.js');
const folder = args[0];
if (folder === undefined || args.length !== 1) {
  process.stderr.write('usage: node scripts/try-wild.mjs <folder> [--list FILE] [--cli dist/cli.js] [--markdown]\n');
  process.exit(2);
}

const list = JSON.parse(readFileSync(listPath, 'utf8'));
const rows = [];
let failures = 0;
for (const entry of list.files) {
  const file = join(resolve(folder), entry.repo.replace('/', '+'), entry.path);
  const want = { format: entry.format, ...entry.expected };
  if (!existsSync(file)) {
    failures += 1;
    rows.push({ entry, got: null, ok: false, note: 'missing' });
    continue;
  }
  const stdout = execFileSync(process.execPath, [cli, 'audit', file, '--format', 'json', '--fail-on', 'never'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const report = JSON.parse(stdout);
  const findings = report.findings;
  const got = {
    format: report.files[0]?.format ?? 'none',
    calls: report.summary.toolCalls,
    results: report.summary.toolResults,
    orphans: findings.filter((f) => f.ruleId === 'orphan-call').length,
    malformed: findings.filter((f) => f.ruleId === 'malformed-record').length,
  };
  const diff = Object.keys(want).filter((key) => want[key] !== got[key]);
  if (diff.length > 0) failures += 1;
  rows.push({ entry, got, ok: diff.length === 0, note: diff.map((key) => `${key}: expected ${want[key]}, got ${got[key]}`).join('; ') });
}

const counts = (c) => `${c.calls} / ${c.results} / ${c.orphans} / ${c.malformed}`;
if (markdown) {
  console.log('| repository | path | commit | format | expected calls / results / orphans / malformed | audit | match |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { entry, got, ok, note } of rows) {
    const found = got === null ? 'missing' : `${got.format}: ${counts(got)}`;
    console.log(`| ${entry.repo} | \`${entry.path}\` | ${entry.commit.slice(0, 12)} | ${entry.format} | ${counts(entry.expected)} | ${found} | ${ok ? 'yes' : `NO (${note})`} |`);
  }
} else {
  for (const { entry, got, ok, note } of rows) {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${entry.format.padEnd(18)} ${got === null ? 'missing' : counts(got)}  ${entry.repo}/${entry.path}${ok ? '' : `  (${note})`}`);
  }
}
console.error(`${rows.length - failures} of ${rows.length} files match`);
process.exit(failures === 0 ? 0 : 1);
