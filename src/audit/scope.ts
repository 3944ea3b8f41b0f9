import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { describeIssues } from '../zod-issues.js';

/** A permission declaration: the agent and the exact (case-sensitive) tool names it may call. */
export const scopeSchema = z
  .strictObject({
    agent: z.string().min(1).describe('Name of the agent the scope belongs to.'),
    allowed_tools: z.array(z.string()).describe('Exact, case-sensitive names of the tools the agent may call.'),
  })
  .describe('A scope: {"agent": "…", "allowed_tools": ["…"]}.');
export type Scope = z.infer<typeof scopeSchema>;

/** Validates a parsed scope; `source` names it in the error (a file, or a config path). */
export function parseScope(data: unknown, source: string): Scope {
  const parsed = scopeSchema.safeParse(data);
  if (!parsed.success) throw new ConfigurationError(`${source}: invalid scope: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Reads and validates a scope file (JSON). Any problem is a ConfigurationError naming the file. */
export function loadScopeFile(path: string, display = path): Scope {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigurationError(`cannot read scope file ${JSON.stringify(display)}${code ? ` (${code})` : ''}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'invalid JSON';
    throw new ConfigurationError(`${display}: scope file is not valid JSON: ${message}`);
  }
  return parseScope(data, display);
}
