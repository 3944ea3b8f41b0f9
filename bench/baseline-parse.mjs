// The benchmark's baseline: the least a Node tool can do with a JSONL file —
// read it line by line and JSON.parse each line. Prints the line count.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: createReadStream(process.argv[2], { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
let count = 0;
for await (const line of lines) {
  if (line.length === 0) continue;
  JSON.parse(line);
  count += 1;
}
console.log(count);
