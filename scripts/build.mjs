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
    let code = readFileSync(join(tmp, 'index.js'), 'utf8');
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
