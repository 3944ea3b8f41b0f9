/**
 * The JSON report, version 1. docs/report-schema.md documents every field. Its own
 * module: building a report needs the number, not the zod schema of src/report/schema.ts
 * (which is built only where a report is read back: merge, the Action's stored reports).
 */
export const REPORT_SCHEMA_VERSION = 1;
