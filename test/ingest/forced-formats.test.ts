import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusFiles, describeCorpus } from '../public-corpus.js';
import { auditCorpus, auditTemp } from './corpus.js';

const OURS = ['langfuse', 'inspect', 'mcp', 'anthropic-messages', 'openai', 'claude-code', 'codex-rollout', 'gemini-cli', 'claude-code-export', 'otel-spans', 'openhands', 'atif', 'google-adk'];
const ALL = corpusFiles().sort();

const KEYS = ['role', 'type', 'content', 'tool_calls', 'function', 'arguments', 'id', 'call_id', 'tool_call_id', 'name', 'input', 'parts', 'messages', 'traj',
  'observations', 'trace', 'samples', 'eval', 'version', 'jsonrpc', 'method', 'params', 'result', 'error', 'tools', 'code', 'message', 'sessionId',
  'toolUseResult', 'permission_denials', 'generated_items', '$schemaVersion', 'raw_item', 'events', 'event', 'startTime', 'metadata', 'attributes',
  'isError', 'is_error', 'tool_use_id', 'output', 'status', 'subtype', 'plan', '__proto__', 'constructor', 'payload', 'toolCalls', 'loglines',
  'schema_version', 'steps', 'observation', 'tool_call_metadata', 'context', 'span_id', 'source', 'action', 'eval_set_id', 'eval_cases', 'projectHash', '$set'];
const WORDS = ['assistant', 'user', 'tool', 'function', 'tool_use', 'tool_result', 'tool_call', 'tool_call_response', 'function_call', 'function_call_output',
  'GENERATION', 'TOOL', 'tools/call', 'tools/list', '2.0', 'init', 'result', 'model', '{"a":1}', '__proto__', 'x', 'session_meta', 'response_item',
  'gemini', 'agent', 'ATIF-v1.4', 'finish', 'agentic.tool.invocation', 'error', 'cancelled'];

/** JSON built from the formats' own keys and words, so the readers' branches are reached with wrong types. */
const shaped = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...WORDS), fc.integer({ min: -32800, max: 5 }), fc.boolean(), fc.constant(null), tie('object'), tie('array')),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
  array: fc.array(tie('value'), { maxLength: 4 }),
})).value;

describeCorpus('framework readers never throw on a public file, whatever they are forced to read', ALL, () => {
  it.each(OURS)('%s reads every corpus file when forced (--input-format)', async (id) => {
    const { result } = await auditCorpus(ALL, id);
    expect(result.files.map((f) => f.format)).toEqual(ALL.map(() => id));
    expect(result.findings.filter((f) => f.ruleId === 'rule-crash')).toEqual([]);
  });
});

describe('framework readers never throw, whatever they are forced to read', () => {
  it('reads arbitrary JSON documents and JSON lines under every forced format', async () => {
    await fc.assert(
      fc.asyncProperty(shaped, fc.array(shaped, { maxLength: 5 }), async (doc, lines) => {
        const files = { 'd.json': JSON.stringify(doc, null, 1), 'l.jsonl': lines.map((l) => JSON.stringify(l)).join('\n') };
        for (const id of OURS) {
          const { result } = await auditTemp(files, id);
          expect(result.files).toHaveLength(2);
        }
      }),
      { numRuns: 150, seed: 7 },
    );
    // 150 documents under 13 readers: a loaded machine needs far more than the default 30 s.
  }, 180_000);
});
