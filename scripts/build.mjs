// Bundles the Action (src/index.ts → dist/index.js) and the CLI (src/cli.ts → dist/cli.js)
// with ncc. Both run with no node_modules. The output is deterministic: CI rebuilds and diffs it.
// The two bundles are built side by side, one ncc process each (each uses about one core).
// ncc compiles each file on its own (--transpile-only, tsconfig.json): the type check is
// tsc's (tsconfig.check.json), run by `npm test` beside the tests, not once more per bundle.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acorn from 'acorn';
import { writeOtlpDescriptor } from './otlp-descriptor.mjs';

const entries = [
  { src: 'src/index.ts', out: 'index.js', shebang: false },
  { src: 'src/cli.ts', out: 'cli.js', shebang: true },
];
// The OTLP descriptor is generated from the pinned npm package's .proto files, never committed.
writeOtlpDescriptor();
mkdirSync('dist', { recursive: true });
const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

/**
 * The bundle with every character past ASCII written as a \\u escape. V8 keeps a script's
 * source in the heap for as long as the process runs, and one character past Latin-1 (a ✅ in
 * a message) makes it a two-byte string: 6 MB of heap for the 3 MB CLI instead of 3 MB, which
 * is a tenth of a 32 MB heap (test/ingest/big/long-run.test.ts). The bundle is tokenized
 * (acorn): in a string, template, regular expression or identifier an escape means the same
 * (a surrogate pair too, with the u flag); white space past ASCII between tokens (a no-break
 * space in a dependency) becomes a space, a line separator a line feed; a comment keeps the
 * escape as text. A tagged template (String.raw) sees its raw text, so one holding such a
 * character fails the build, as does a backslash before one.
 */
function asciiOnly(code, name) {
  const tokens = [];
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, onToken: tokens });
  const raws = [];
  (function walk(node) {
    if (node.type === 'TaggedTemplateExpression') raws.push([node.quasi.start, node.quasi.end]);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach((item) => item && walk(item));
      else if (value && typeof value.type === 'string') walk(value);
    }
  })(ast);
  const PAST_ASCII = /[^\x00-\x7f]/g;
  const escaped = (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const inToken = (ch, at) => {
    if (code[at - 1] === '\\') throw new Error(`${name}: a backslash before a character past ASCII at ${at}: write it as an escape`);
    if (raws.some(([from, to]) => at >= from && at < to)) throw new Error(`${name}: a character past ASCII in a tagged template at ${at}: write it as an escape`);
    return escaped(ch);
  };
  // White space and comments between tokens: a comment keeps the escape as text.
  const between = (text) => text.replace(PAST_ASCII, (ch) => (/[\u2028\u2029]/.test(ch) ? '\n' : /\s/.test(ch) ? ' ' : escaped(ch)));
  let out = '';
  let at = 0;
  for (const { start, end } of tokens) {
    out += between(code.slice(at, start)) + code.slice(start, end).replace(PAST_ASCII, (ch, i) => inToken(ch, start + i));
    at = end;
  }
  return out + between(code.slice(at));
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`ncc ${args.slice(2, 3).join(' ')} exited ${code ?? signal}`))));
  });
}

async function build(entry) {
  const tmp = mkdtempSync(join(tmpdir(), 'ata-build-'));
  try {
    await run([ncc, 'build', entry.src, '-o', tmp, '--quiet', '--transpile-only', '--target', 'es2022', '--license', 'licenses.txt']);
    // One file per entry: a dynamic import() is written `import(/* webpackMode: "eager" */ '...')`,
    // which keeps the module in this file and evaluates it on first use; a plain one would be a chunk file.
    const chunks = readdirSync(tmp).filter((name) => name.endsWith('.js') && name !== 'index.js');
    if (chunks.length > 0) throw new Error(`${entry.src}: ncc wrote ${chunks.join(', ')}: give each dynamic import() the /* webpackMode: "eager" */ comment`);
    let code = asciiOnly(readFileSync(join(tmp, 'index.js'), 'utf8'), entry.out);
    if (entry.shebang && !code.startsWith('#!')) code = `#!/usr/bin/env node\n${code}`;
    writeFileSync(join('dist', entry.out), code);
    if (entry.shebang) chmodSync(join('dist', entry.out), 0o755);
    // The Action bundle includes everything the CLI does, so its license list covers both.
    if (entry.out === 'index.js') writeFileSync(join('dist', 'licenses.txt'), readFileSync(join(tmp, 'licenses.txt')));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await Promise.all(entries.map(build));
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n');
