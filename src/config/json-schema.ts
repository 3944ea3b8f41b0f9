import { z } from 'zod';
import { configFileSchema } from './config.js';

export const SCHEMA_FILE = 'agent-trace-audit.schema.json';

/**
 * The JSON Schema of agent-trace-audit.yml, generated from the zod schema (the
 * source of truth) for editor completion. The input side is described: options
 * with defaults are optional. `npm run schema` writes it to SCHEMA_FILE.
 */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configFileSchema(), { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: generated['$schema'],
    title: 'agent-trace-audit configuration (agent-trace-audit.yml)',
    ...Object.fromEntries(Object.entries(generated).filter(([key]) => key !== '$schema')),
  };
}

/** The file's exact bytes: two-space JSON and a final newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
