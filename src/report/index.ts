import { UsageError } from '../errors.js';
import { renderHtml } from './html/render.js';
import { renderJson } from './render/json.js';
import { renderMarkdown } from './render/markdown.js';
import { renderSarif } from './render/sarif.js';
import type { Report } from './schema.js';
import { renderText } from './render/text.js';
import type { RunTimeline } from '../model/timeline.js';
import type { VerdictLines } from './verdict/judge.js';

export const OUTPUT_FORMATS = ['text', 'json', 'markdown', 'html', 'sarif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * `timelines`: the runs as drawn by the html format (collected with `timelineCollector`).
 * `judged`: the verdict (judge()): the markdown leads with it, the text report too (SARIF and JSON read it from the judged report).
 */
export function renderReport(report: Report, format: string, timelines: readonly RunTimeline[], judged: VerdictLines, options: { notCompared?: string } = {}): string {
  switch (format) {
    case 'text':
      return renderText(report, judged);
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report, judged, options);
    case 'html':
      return renderHtml(report, timelines);
    case 'sarif':
      return renderSarif(report);
    default:
      throw new UsageError(`unknown --format ${JSON.stringify(format)}; expected one of ${OUTPUT_FORMATS.join(', ')}`);
  }
}
