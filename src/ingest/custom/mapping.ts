import { z } from 'zod';
import { compileSelector } from './query.js';

/**
 * The `formats:` section of the configuration file: a user's own JSON, JSONL or
 * YAML trace format, mapped to calls and results with RFC 9535 JSONPath queries in
 * steps (query.ts; docs/formats/custom.md). Validated here, queries compiled: a query that does
 * not parse is a `config` error naming its key (`formats.my-log.calls.tool: …`).
 */
export const jsonPathQuery = z
  .string()
  .superRefine((text, ctx) => {
    const compiled = compileSelector(text);
    if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
  })
  .meta({
    id: 'jsonpath-query',
    description: 'An RFC 9535 JSONPath query, e.g. "$.function.name" (no match()/search(), at most one ..), or steps joined by |: a query, json (parse JSON text), parent (the object holding the node), record (the record the item came from), e.g. "$.body | json | $.tool_calls[*]".',
  });
const selector = jsonPathQuery;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A test on a value: a query alone holds when it selects a node whose value is not
 * null or false; with `equals`, when it selects a node equal to that scalar (or one of that list).
 */
const condition = z
  .union([
    selector,
    z.strictObject({
      path: selector,
      equals: z.union([scalar, z.array(scalar)]).optional().describe('The value (or any of the values) the selected node must equal.'),
    }),
  ])
  .meta({ id: 'jsonpath-condition', description: 'A JSONPath query that must select a node (not null or false), or {path, equals}.' });

const placeFields = {
  'run-id': selector.optional().describe('The run the item belongs to, from the item (default: the format\'s run-id); "record | $.id" reads it from the record.'),
  timestamp: selector.optional().describe('When it happened: ISO 8601 text, or epoch seconds, milliseconds, microseconds or nanoseconds.'),
};

const callsMapping = z
  .strictObject({
    select: selector.describe('The calls, from each record (a JSONL line, or the document): every node selected is one call.'),
    when: condition.optional().describe('Only the selected items this holds for are calls.'),
    id: selector.optional().describe('The call id, from the call (a result is paired with the call of the same id).'),
    tool: selector.describe('The tool name, from the call.'),
    arguments: selector.optional().describe('The arguments, from the call (JSON text is parsed).'),
    ...placeFields,
  })
  .describe('Where the tool calls are and how to read each.');

const resultsMapping = z
  .strictObject({
    select: selector.describe('The results, from each record (a JSONL line, or the document): every node selected is one result.'),
    when: condition.optional().describe('Only the selected items this holds for are results.'),
    id: selector.optional().describe('The id of the call it answers, from the result.'),
    tool: selector.optional().describe('The tool name, from the result.'),
    output: selector.optional().describe('What the tool returned, from the result.'),
    error: condition.optional().describe('The result is an error when this holds for it.'),
    ...placeFields,
  })
  .describe('Where the tool results are and how to read each.');

const toolsMapping = z
  .strictObject({
    select: selector.describe('The tools offered (the catalog), from each record: every node selected is one tool.'),
    name: selector.describe('The tool name, from the tool.'),
    schema: selector.optional().describe('The tool\'s JSON Schema for its arguments, from the tool.'),
    'run-id': selector.optional().describe('The run the catalog belongs to, from the tool (default: the format\'s run-id).'),
  })
  .describe('The tools offered to the model: the run\'s catalog.');

export const formatMapping = z
  .strictObject({
    description: z.string().optional().describe('What this format is (shown nowhere else; for the reader of the configuration).'),
    layout: z
      .enum(['jsonl', 'document', 'yaml'])
      .describe('jsonl: each line is one record; document: the file is one JSON document, the one record; yaml: each YAML document of the file (one, or a --- stream) is a record.'),
    detect: condition
      .optional()
      .describe('Claims a file for this format when it holds for the document, or for one of the first lines of a JSONL file. Without it the format is read only when named (--input-format).'),
    'run-id': selector.optional().describe('The run id, from each record (a line, or the document); without it (and without an item\'s own run-id) a file is one run.'),
    runs: z
      .enum(['by-id', 'per-record'])
      .optional()
      .describe('by-id (default): items with the same run id are one run; per-record: each record is its own run, named by its run id and its line (id#line), so ids repeated across lines never merge runs.'),
    calls: callsMapping.optional(),
    results: resultsMapping.optional(),
    tools: toolsMapping.optional(),
  })
  .refine((mapping) => mapping.calls !== undefined || mapping.results !== undefined, { message: 'a format maps calls, results or both' });

/** A format's name: what --input-format takes and the report's `format`. */
export const FORMAT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export type FormatMapping = z.infer<typeof formatMapping>;
export type Condition = z.infer<typeof condition>;

/** One configured format, as the audit configuration carries it (plain data: it crosses to worker threads). */
export interface CustomFormatSpec extends FormatMapping {
  readonly name: string;
}
