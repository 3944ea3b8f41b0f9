export * from './records.js';
export * from './run.js';
export * from './finding.js';
