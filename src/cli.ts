import { auditWorkerMain, isAuditWorker } from './audit/engine/pool.js';
import { stdoutFile } from './cli/stdout-target.js';
import { limitHeapGrowth } from './heap-growth.js';

/** The CLI entry: argv in, exit code out (or, started as an audit worker, the worker). Everything else lives in src/cli/. */
if (isAuditWorker()) {
  await auditWorkerMain();
} else {
  // A worker never loads the commands (eager: kept in the bundle, evaluated here; see scripts/build.mjs).
  const { runCli } = await import(/* webpackMode: "eager" */ './cli/main.js');
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stdoutStream: process.stdout,
    stderr: (text) => process.stderr.write(text),
    stdoutIsTerminal: process.stdout.isTTY === true,
    stdoutFile: stdoutFile(),
    cwd: process.cwd(),
    env: process.env,
    workerEntry: new URL(import.meta.url),
    tuneHeap: (env) => void limitHeapGrowth(env),
  });
}
