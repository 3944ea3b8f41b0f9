import type { z } from 'zod';
import { nearest } from './nearest.js';

type Issue = z.core.$ZodIssue;

/**
 * One line naming each problem with its path: `rules.retry-storm.threshold: expected number`,
 * `rules.retry-storm.bogus: unknown key`.
 * A union that failed as a whole is reported through the alternative that got
 * furthest (the one with an issue below the union's own path), so the user
 * sees `rules.retry-storm.threshold: …` rather than "invalid input".
 */
export function describeIssues(error: z.ZodError, schema?: z.ZodType): string {
  const issues = flatten(error.issues, []);
  const lines = issues
    .slice(0, MAX_ISSUES)
    .map((issue) => {
      const path = issue.path.map(String);
      // An unknown key is named by its own path: `rules.retry-storm.bogus: unknown key`.
      if (issue.code === 'unrecognized_keys') {
        const what = path.length === 1 && path[0] === 'rules' ? (key: string) => `unknown rule id ${JSON.stringify(key)}` : () => 'unknown key';
        // With the schema: the known key (or rule id) nearest to a typo, as for flags.
        const known = schema === undefined ? [] : keysAt(schema, issue.path);
        const hint = (key: string) => {
          const guess = nearest(key, known);
          return guess === null ? '' : ` (did you mean ${JSON.stringify(guess)}?)`;
        };
        return issue.keys.map((key) => `${[...path, key].join('.')}: ${what(key)}${hint(key)}`).join('; ');
      }
      return `${path.length === 0 ? '(top level)' : path.join('.')}: ${issue.message}`;
    });
  // A cut list says so: the user fixes what is shown and is not surprised by the rest.
  if (issues.length > MAX_ISSUES) lines.push(`and ${issues.length - MAX_ISSUES} more problem(s)`);
  return lines.join('; ');
}

/** Problems named in one message; more are counted, not listed. */
const MAX_ISSUES = 8;

function flatten(issues: readonly Issue[], prefix: PropertyKey[]): Array<Issue & { path: PropertyKey[] }> {
  const out: Array<Issue & { path: PropertyKey[] }> = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const deeper = issue.errors.find((branch) => branch.some((inner) => inner.path.length > 0));
      out.push(...flatten(deeper ?? issue.errors[0]!, path));
    } else out.push({ ...issue, path });
  }
  return out;
}

/** The keys an object schema accepts at `path` (through optional, default, nullable and union wrappers); none when unknown. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let nodes: unknown[] = [schema];
  for (const step of [...path, null]) {
    const objects: Array<Record<string, unknown>> = [];
    const open = [...nodes];
    while (open.length > 0) {
      const def = (open.pop() as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
      if (!def) continue;
      if (def['type'] === 'object') objects.push(def['shape'] as Record<string, unknown>);
      else if (def['type'] === 'union') open.push(...(def['options'] as unknown[]));
      else if ('innerType' in def) open.push(def['innerType']);
    }
    if (step === null) return [...new Set(objects.flatMap((shape) => Object.keys(shape)))].sort();
    nodes = objects.map((shape) => (Object.hasOwn(shape, String(step)) ? shape[String(step)] : undefined)).filter((node) => node !== undefined);
  }
  return [];
}
