import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * One line naming each problem with its path: `rules.retry-storm.threshold: expected number`,
 * `rules.retry-storm.bogus: unknown key`.
 * A union that failed as a whole is reported through the alternative that got
 * furthest (the one with an issue below the union's own path), so the user
 * sees `rules.retry-storm.threshold: …` rather than "invalid input".
 */
export function describeIssues(error: z.ZodError): string {
  const issues = flatten(error.issues, []);
  const lines = issues
    .slice(0, MAX_ISSUES)
    .map((issue) => {
      const path = issue.path.map(String);
      // An unknown key is named by its own path: `rules.retry-storm.bogus: unknown key`.
      if (issue.code === 'unrecognized_keys') {
        const what = path.length === 1 && path[0] === 'rules' ? (key: string) => `unknown rule id ${JSON.stringify(key)}` : () => 'unknown key';
        return issue.keys.map((key) => `${[...path, key].join('.')}: ${what(key)}`).join('; ');
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
