import { auditWorkerMain, isAuditWorker } from './audit/pool.js';
import { run } from './main.js';

/** The Action entry: run the Action (or, started as an audit worker, the worker). */
if (isAuditWorker()) await auditWorkerMain();
else await run(new URL(import.meta.url));
