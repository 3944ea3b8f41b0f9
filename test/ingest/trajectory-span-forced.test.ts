import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusFile, corpusHas, describeCorpus, manifest } from '../public-corpus.js';
import { auditPaths, auditTemp } from './corpus.js';

const NEW_FORMATS = ['swe-agent', 'mini-swe-agent', 'any-agent'];
// The public files at hand (a folder may hold only part of the manifest); with none, the block is skipped and counted.
const LISTED = [...manifest().keys()].sort();
const PRESENT = LISTED.some((file) => corpusHas(file)) ? LISTED.filter((file) => corpusHas(file)) : LISTED;

const KEYS = ['history', 'trajectory', 'info', 'environment', 'action', 'observation', 'message_type', 'role', 'content', 'tool_calls', 'tool_call_ids',
  'tool_call_id', 'function', 'name', 'arguments', 'id', 'messages', 'trajectory_format', 'mini_version', 'extra', 'returncode', 'spans', 'final_output',
  'context', 'trace_id', 'span_id', 'parent', 'parent_id', 'start_time', 'end_time', 'status', 'status_code', 'span_kind', 'attributes',
  'gen_ai.operation.name', 'gen_ai.output', 'gen_ai.output.type', 'gen_ai.tool.args', 'gen_ai.tool.name', 'openinference.span.kind', 'tool.id',
  '__proto__', 'constructor'];
const WORDS = ['assistant', 'user', 'tool', 'system', 'action', 'observation', 'system_prompt', 'call_llm', 'execute_tool', 'json', 'LLM', 'TOOL',
  '```bash\nls\n```', '```mswea_bash_command\npwd\n```', '<returncode>1</returncode>', 'mini-swe-agent-1.1', '[{"tool.name": "a"}]', 'ok', 'error',
  '__proto__', 'x'];

/** JSON built from these formats' own keys and words, so the readers' branches are reached with wrong types. */
const shaped = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...WORDS), fc.integer({ min: -5, max: 2 ** 53 }), fc.boolean(), fc.constant(null), tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
  array: fc.array(tie('value'), { maxLength: 4 }),
})).value;

describeCorpus('the trajectory and span readers of issue 37, forced on every public file', PRESENT, () => {
  it.each(NEW_FORMATS)('%s reads every public file when forced, without a crash', async (id) => {
    const paths = PRESENT.map(corpusFile);
    const { result } = await auditPaths(paths, id);
    expect(result.files.map((f) => f.format)).toEqual(paths.map(() => id));
    expect(result.findings.filter((f) => f.ruleId === 'rule-crash' || f.ruleId === 'internal-error')).toEqual([]);
  });
});

describe('the trajectory and span readers of issue 37 never throw', () => {
  it('on arbitrary JSON documents built from their keys, forced or detected', async () => {
    await fc.assert(
      fc.asyncProperty(shaped, async (doc) => {
        const files = { 'd.json': JSON.stringify(doc, null, 1) };
        for (const id of [...NEW_FORMATS, undefined]) {
          const { result } = await auditTemp(files, id);
          expect(result.findings.filter((f) => f.ruleId === 'rule-crash' || f.ruleId === 'internal-error')).toEqual([]);
        }
      }),
      { numRuns: 150, seed: 37 },
    );
  });
});
