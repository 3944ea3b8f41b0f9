// `npm test` after the build: the type check and the test suite (vitest run, every core) side
// by side, rather than one after the other. The type check is TypeScript 7's tsc (the native
// compiler, devDependency `typescript-7`: about 4 s and 8 CPU-seconds where TypeScript 5.9's
// took 14 s and 22 CPU-seconds, the same errors); typescript 5.9 stays for ncc's loader.
// The build wrote src/receiver/otlp-descriptor.ts, so tsc runs alone here (not
// `npm run typecheck`, which would rewrite that file while the tests import it).
// The type check's output is printed when the tests are done; the exit code is the first
// failure's (0 when both pass). Arguments go to vitest (`npm test -- test/cli/`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const typecheck = run(join('node_modules', 'typescript-7', 'bin', 'tsc'), ['-p', 'tsconfig.check.json', '--noEmit'], { quiet: true });
const tests = await run(join('node_modules', 'vitest', 'vitest.mjs'), ['run', ...process.argv.slice(2)], { quiet: false });
const types = await typecheck;
process.stdout.write(types.code === 0 ? 'typecheck: no errors\n' : `typecheck failed (tsc -p tsconfig.check.json):\n${types.output}`);
process.exitCode = tests.code !== 0 ? tests.code : types.code;
