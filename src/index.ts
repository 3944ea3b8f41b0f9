import { auditWorkerMain, isAuditWorker } from './audit/engine/pool.js';

/** The Action entry: run the Action (or, started as an audit worker, the worker). */
if (isAuditWorker()) await auditWorkerMain();
else {
  // A worker never loads the Action (@actions/*, the GitHub clients): webpackMode eager keeps
  // it in this one file, evaluated here (see scripts/build.mjs).
  const { run } = await import(/* webpackMode: "eager" */ './main.js');
  await run(new URL(import.meta.url));
}
