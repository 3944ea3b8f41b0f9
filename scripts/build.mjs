// Bundles the Action (src/index.ts → dist/index.js) and the CLI (src/cli.ts → dist/cli.js)
// with ncc. Both run with no node_modules. The output is deterministic: CI rebuilds and diffs it.
// The two bundles are built side by side, one ncc process each (each uses about one core).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * is a tenth of a 32 MB heap (test/ingest/big/long-run.test.ts). An escape means the same in a
 * string, a template, a regular expression (a surrogate pair too, with the u flag) and an
 * identifier; it would not in String.raw or after a backslash, so those fail the build.
 */
function asciiOnly(code, name) {
  for (const raw of code.matchAll(/String\.raw\s*`/g)) {
    let i = raw.index + raw[0].length;
    let depth = 0;
    for (; i < code.length; i += 1) {
      const ch = code[i];
      if (ch === '\\') i += 1;
      else if (depth === 0 && ch === '`') break;
      else if (ch === '$' && code[i + 1] === '{') (depth += 1), (i += 1);
      else if (depth > 0 && ch === '}') depth -= 1;
      else if (ch.charCodeAt(0) > 0x7f) throw new Error(`${name}: a character past ASCII in a String.raw template at ${raw.index}: write it as an escape`);
    }
  }
  return code.replace(/[^\x00-\x7f]/g, (ch, at) => {
    if (code[at - 1] === '\\') throw new Error(`${name}: a backslash before a character past ASCII at ${at}: write it as an escape`);
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
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
    await run([ncc, 'build', entry.src, '-o', tmp, '--quiet', '--target', 'es2022', '--license', 'licenses.txt']);
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
