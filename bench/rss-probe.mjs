// Preloaded with `node --import ./bench/rss-probe.mjs …`: on exit, appends the process's
// peak resident set size (bytes) to the file named by BENCH_RSS_FILE. Measures, changes nothing.
import { appendFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
if (target) {
  process.on('exit', () => {
    appendFileSync(target, `${process.resourceUsage().maxRSS * 1024}\n`);
  });
}
