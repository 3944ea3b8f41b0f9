import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigurationError } from '../../errors.js';
import { describeIssues } from '../../zod-issues.js';
import { readConfinedFile, realFolder, type Confinement } from '../../io/confine.js';

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

/** Largest scope file read (checked before a byte is read). */
export const SCOPE_MAX_BYTES = 1024 * 1024;

/**
 * Reads and validates a scope file (JSON). Any problem is a ConfigurationError naming the file.
 * `within`: where it may lead (src/io/confine.ts); by default the working folder, since a
 * scope path in a configuration file comes from the repository.
 */
export function loadScopeFile(path: string, display = path, within?: Confinement): Scope {
  const read = readConfinedFile(resolve(path), within ?? { root: realFolder(process.cwd()), rootName: 'the working folder' }, SCOPE_MAX_BYTES);
  if (read.kind === 'refused' && read.missing) throw new ConfigurationError(`no such scope file: ${JSON.stringify(display)}`, 'no-such-path');
  if (read.kind === 'refused') throw new ConfigurationError(`cannot read scope file ${JSON.stringify(display)}: ${read.refused.replace(/^refused: /, '')}`);
  if (read.kind === 'error') {
    const code = (read.error as NodeJS.ErrnoException).code;
    throw new ConfigurationError(`cannot read scope file ${JSON.stringify(display)}${code ? ` (${code})` : ''}`);
  }
  const text = read.bytes.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'invalid JSON';
    throw new ConfigurationError(`${display}: scope file is not valid JSON: ${message}`);
  }
  return parseScope(data, display);
}
