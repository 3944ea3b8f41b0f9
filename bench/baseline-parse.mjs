// The benchmark's baseline: the least a Node tool can do with a JSONL file —
// read it in the stream's own 64 KiB chunks, split each at '\n' and JSON.parse each
// line. Prints the line count. Of the simple loops measured in one run on the bench
// log (docs/performance.md), this is the fastest: readline (its default chunks) took
// about twice as long, readline with 1 MiB chunks four times, and larger chunks slow
// the split loop down too (each chunk a large string split and concatenated).
import { createReadStream } from 'node:fs';

let count = 0;
let rest = '';
const parse = (line) => {
  // An empty line, or one left by a CRLF line ending, holds no record.
  if (line.length === 0 || line === '\r') return;
  JSON.parse(line);
  count += 1;
};
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8' })) {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) parse(line);
}
parse(rest);
console.log(count);
