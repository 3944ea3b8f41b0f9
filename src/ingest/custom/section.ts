import { z } from 'zod';
import { FORMATS } from '../registry.js';
import { FORMAT_NAME, formatMapping, jsonPathQuery } from './mapping.js';

/**
 * The configuration file's `formats:` section: named mappings (src/ingest/custom/mapping.ts).
 * A name is what --input-format takes; it may not be a built-in format's id.
 */
export function formatsSection() {
  return z
    .record(z.string(), formatMapping)
    .superRefine((formats, ctx) => {
      for (const name of Object.keys(formats)) {
        if (!FORMAT_NAME.test(name)) {
          ctx.addIssue({ code: 'custom', path: [name], message: 'a format name is 1 to 64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit' });
        } else if (FORMATS.some((format) => format.id === name)) {
          ctx.addIssue({ code: 'custom', path: [name], message: `'${name}' is a built-in format; give the mapping another name` });
        }
      }
    })
    .describe('Your own JSON or JSONL trace formats, mapped to calls and results with RFC 9535 JSONPath queries (docs/formats/custom.md); --input-format takes a name from here.');
}

/**
 * The configuration file's `identity:` section: where a run's scenario name is, as
 * JSONPath queries over each record of a JSON-lines trace (the first query that
 * selects a string or number names the run of that record's line). See
 * docs/configuration.md and docs/report-schema.md.
 */
export function identitySection() {
  return z
    .strictObject({
      scenario: z
        .union([jsonPathQuery, z.array(jsonPathQuery).min(1).max(16)])
        .describe('JSONPath queries (tried in order) that select a run\'s scenario name on its JSON-lines records, e.g. "$.attributes[\'test.name\']": it outranks the name the trace format carries.'),
    })
    .describe('What identifies a run across reruns of the agent suite (its scenario), for the fingerprints that match findings against a base report.');
}
