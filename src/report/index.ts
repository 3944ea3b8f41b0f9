import { UsageError } from '../errors.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './schema.js';
import { renderText } from './text.js';

export const OUTPUT_FORMATS = ['text', 'json', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function renderReport(report: Report, format: string): string {
  switch (format) {
    case 'text':
      return renderText(report);
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report);
    default:
      throw new UsageError(`unknown --format ${JSON.stringify(format)}; expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
}
