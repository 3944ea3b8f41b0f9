// The per-format baseline of a one-document format: the least a Node tool can do with
// it — read the file whole and JSON.parse it once. Prints the top-level keys or length.
import { readFileSync } from 'node:fs';

const value = JSON.parse(readFileSync(process.argv[2], 'utf8'));
console.log(Array.isArray(value) ? value.length : Object.keys(value).length);
