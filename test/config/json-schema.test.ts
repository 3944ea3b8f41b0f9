import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../src/config/config.js';
import { configJsonSchema, configJsonSchemaText, SCHEMA_FILE } from '../../src/config/json-schema.js';
import { RULES } from '../../src/audit/rules/index.js';

const committed = readFileSync(SCHEMA_FILE, 'utf8');
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(committed) as object);
const example = /## Example\n\n(?:`agent-trace-audit\.yml`:\n\n)?```yaml\n([\s\S]*?)```/.exec(readFileSync('docs/configuration.md', 'utf8'))![1]!;

describe(SCHEMA_FILE, () => {
  it('is what `npm run schema` generates from the zod schema (run it after adding a rule or an option)', () => {
    expect(committed).toBe(configJsonSchemaText());
  });

  it('has an entry for every rule, with its options', () => {
    const rules = (configJsonSchema()['properties'] as Record<string, { properties: Record<string, unknown> }>)['rules']!.properties;
    expect(Object.keys(rules).sort()).toEqual(RULES.map((r) => r.meta.id).sort());
    const optionsOf = (id: string) => Object.keys((rules[id] as { anyOf: Array<{ properties?: object }> }).anyOf[1]!.properties!).sort();
    expect(optionsOf('retry-storm')).toEqual(['severity', 'threshold']);
    expect(optionsOf('redundant-call')).toEqual(['mutators', 'severity']);
    expect(optionsOf('permission-overreach')).toEqual(['scope', 'severity']);
  });

  it('accepts the example of docs/configuration.md, as zod does', () => {
    const data: unknown = parseYaml(example);
    expect(configFileSchema().safeParse(data).success).toBe(true);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects what zod rejects: unknown rule, unknown option, wrong type', () => {
    for (const bad of [
      { rules: { 'no-such-rule': 'off' } },
      { rules: { 'retry-storm': { treshold: 3 } } },
      { rules: { 'retry-storm': { threshold: 'x' } } },
      { rules: { 'permission-overreach': { scope: { agent: 'a' } } } },
      { 'fail-on': 'sometimes' },
    ]) {
      expect(configFileSchema().safeParse(bad).success).toBe(false);
      expect(validate(bad)).toBe(false);
    }
  });
});
