// `--format-huge`: issue 22's "a 2 GB OTLP JSONL file and a 1 GB OTLP JSON document audited
// without exceeding the bound". Both are generated streaming (1 MB at a time) into
// bench/out/ and kept there; each is audited once with dist/cli.js, its peak RSS, time and
// exit code recorded and its report's counts checked against what the generator wrote.
// The JSONL file is timed next to the bare parse loop too; the document has no such loop
// (a 1 GB text is past V8's longest string, so JSON.parse cannot take it whole).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { GENERATORS } from './index.mjs';
import { auditArgs, baselineScript, input, mib, round3 } from './files.mjs';

export const HUGE = [
  { id: 'otlp-lines', sizeMB: 2000 },
  { id: 'otlp-document', sizeMB: 1000 },
];
const BOUND_MIB = 250;

/** Runs the huge rows; returns them by id, for bench/results.json's `formats.huge`. */
export async function hugeRows({ once, root, cli, out }) {
  const rows = {};
  for (const { id, sizeMB } of HUGE) {
    const generator = GENERATORS.find((g) => g.id === id);
    const file = await input(out, generator, sizeMB);
    const loadBefore = round3(loadavg()[0]);
    const baseline = generator.baseline === 'lines' ? await once([baselineScript(root, generator), file.path], [0]) : undefined;
    const report = join(out, `format-${id}-huge.report.json`);
    // Any exit is recorded, not thrown: an input error past a limit is a result here.
    const audit = await once(auditArgs(cli, file.path, report), [0, 1, 2]);
    const summary = audit.code === 0 ? JSON.parse(readFileSync(report, 'utf8')).summary : undefined;
    const { runs, calls, results } = file.counts;
    const row = {
      format: generator.format,
      sizeMB,
      bytes: file.counts.bytes,
      written: { runs, calls, results },
      exitCode: audit.code,
      ...(audit.code === 0 ? {} : { stderr: audit.stderr.split('\n')[0] }),
      audited: summary === undefined ? null : { runs: summary.runs, calls: summary.toolCalls, results: summary.toolResults },
      auditSeconds: round3(audit.seconds),
      peakRssMiB: mib(audit.rss),
      ...(baseline === undefined ? {} : { baselineSeconds: round3(baseline.seconds), timeOverBaseline: round3(audit.seconds / baseline.seconds) }),
      loadAverage: [loadBefore, round3(loadavg()[0])],
      date: new Date().toISOString(),
    };
    const counted = summary !== undefined && summary.runs === runs && summary.toolCalls === calls && summary.toolResults === results;
    row.targets = { peakRssMiB: { max: BOUND_MIB, met: audit.code === 0 && counted && row.peakRssMiB <= BOUND_MIB } };
    rows[id] = row;
    console.log(`  huge ${id} ${sizeMB} MB: exit ${audit.code}, ${row.auditSeconds.toFixed(1)} s, ${row.peakRssMiB.toFixed(1)} MiB, counts ${counted ? 'match' : 'DIFFER'}`);
  }
  return rows;
}

/** Prints the huge rows. */
export function printHugeRows(huge) {
  console.log(`huge files (target: peak RSS <= ${BOUND_MIB} MiB, every run and call counted):`);
  for (const [id, r] of Object.entries(huge)) {
    const time = r.timeOverBaseline === undefined ? '' : ` (${r.timeOverBaseline.toFixed(2)}x the parse loop's ${r.baselineSeconds.toFixed(1)} s)`;
    const counts = r.audited ? `${r.audited.runs} runs, ${r.audited.calls} calls of ${r.written.calls}` : `exit ${r.exitCode}: ${r.stderr}`;
    console.log(`  ${(r.targets.peakRssMiB.met ? 'ok ' : 'MISS').padEnd(4)} ${id.padEnd(14)} ${r.sizeMB} MB: ${r.peakRssMiB.toFixed(1)} MiB, ${r.auditSeconds.toFixed(1)} s${time}; ${counts} (load ${r.loadAverage.join('→')})`);
  }
}
