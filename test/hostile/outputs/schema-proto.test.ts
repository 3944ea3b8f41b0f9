import { describe, expect, it } from 'vitest';
import { firstFailure, SchemaValidators } from '../../../src/audit/catalog/schema-validator.js';
import { tempTree } from '../../helpers.js';
import { auditJson, brief } from '../audit-cli.js';

/** Raw JSON text: a `__proto__` key in a JS object literal would set the prototype, not a property. */
const check = (schema: string, args: string) => {
  const compiled = new SchemaValidators().compile(JSON.parse(schema)).compiled;
  if (!compiled.ok) throw new Error(compiled.reason);
  return firstFailure(compiled.validate, JSON.parse(args));
};

describe('tool schemas read own properties only', () => {
  it('a declared `constructor` is not read from the prototype: the error is at the bad field', () => {
    expect(check('{"type":"object","properties":{"constructor":{"type":"string"},"n":{"type":"integer"}}}', '{"n":"x"}')).toEqual({
      path: '/n',
      keyword: 'type',
      message: 'must be integer',
    });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('a missing required %s is reported', (name) => {
    expect(check(`{"type":"object","required":["${name}"]}`, '{}')).toEqual({ path: '', keyword: 'required', message: `must have required property '${name}'` });
  });

  it('a valid {"__proto__":"fine"} passes, and a bad one fails at /__proto__', () => {
    const schema = '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}';
    expect(check(schema, '{"__proto__":"fine"}')).toBeNull();
    expect(check(schema, '{"__proto__":7}')).toEqual({ path: '/__proto__', keyword: 'type', message: 'must be string' });
    expect(check(schema, '{"__proto__":"fine","x":1}')).toMatchObject({ keyword: 'additionalProperties' });
    // Nested, and in the 2020-12 dialect too.
    const nested = '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"o":{"type":"object","properties":{"__proto__":{"type":"integer"}},"additionalProperties":false}}}';
    expect(check(nested, '{"o":{"__proto__":1}}')).toBeNull();
    expect(check(nested, '{"o":{"__proto__":"x"}}')).toEqual({ path: '/o/__proto__', keyword: 'type', message: 'must be integer' });
  });

  it('through an audit: the right findings, and the rest of the run intact', async () => {
    const schemas = '{"lookup":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}}';
    const lines = [
      `{"type":"catalog","run_id":"r","catalog_names":["lookup"],"schemas":${schemas}}`,
      '{"type":"tool_call","run_id":"r","tool_call_id":"c1","name":"lookup","arguments":{"__proto__":"fine"}}',
      '{"type":"tool_call","run_id":"r","tool_call_id":"c2","name":"lookup","arguments":{"constructor":"x"}}',
      '{"type":"tool_call","run_id":"r","tool_call_id":"c3","name":"lookup","arguments":{"__proto__":"fine","constructor":5}}',
    ];
    const root = tempTree({ 'p.jsonl': `${lines.join('\n')}\n` });
    const { report } = await auditJson(['p.jsonl'], [], root);
    expect(brief(report).filter((f) => f.startsWith('invalid-arguments'))).toEqual([
      "invalid-arguments@3 arguments to 'lookup' fail its schema at the top level (keyword 'required'): must have required property '__proto__'",
      "invalid-arguments@4 arguments to 'lookup' fail its schema at /constructor (keyword 'type'): must be string",
    ]);
    expect(report.summary).toMatchObject({ files: 1, runs: 1, toolCalls: 3 });
  });
});
