import type { Report } from './schema.js';

/** The JSON report: two-space indented, keys in schema order, trailing newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
