import { z } from 'zod';
import { errorCodeOfResult } from '../../facts/error-code.js';
import { defineRule } from '../rule-types.js';
import { stringsOf } from '../../facts/walk-strings.js';
import { isErrorResult } from '../../facts/error-result.js';

/** Fields that hold the human text of a body (preferred over `type: "text"` and the like). */
const TEXT_FIELD = /(?:^|[.\]>])(?:text|message|msg|error|detail|description|reason)$/i;

/**
 * A short quote of a result's body for a finding message: the first line of its
 * message-like string (or else its first non-blank string), cut at `max`
 * characters (the engine sanitizes it).
 */
function bodyExcerpt(content: unknown, max = 80): string | null {
  const found = stringsOf(content).filter(({ text }) => text.trim() !== '');
  const pick = found.find(({ path }) => path === '' || TEXT_FIELD.test(path)) ?? found[0];
  if (!pick) return null;
  const line = pick.text.trim().split(/\r?\n/, 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const unstructuredError = defineRule({
  meta: {
    id: 'unstructured-error',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'An error result without a stable code the caller can branch on: a bare message or str(exc) text.',
    likelyCause: 'The tool boundary returns the exception text (or nothing) instead of mapping failures to an error body with a code.',
    nextAction: 'Map exceptions at the tool boundary to a body with a stable code, a class, retryable and a reference; log the details instead.',
    options: z.strictObject({}),
  },
  // Each result as it arrives: the excerpt is of its content, which its run does not hold.
  record(arrival, _ctx, report) {
    if (arrival.kind !== 'tool_result') return;
    const result = arrival.record;
    if (!isErrorResult(arrival.held) || errorCodeOfResult(arrival.held) !== null) return;
    const tool = result.tool === null ? 'a tool' : `'${result.tool}'`;
    const excerpt = bodyExcerpt(result.content);
    const body = excerpt === null ? 'empty body' : `body: "${excerpt}"`;
    report({
      loc: result.loc,
      runId: result.runId,
      callId: result.callId,
      tool: result.tool,
      message: `error result of ${tool} has no machine-readable code (${body})`,
    });
  },
});
