import { expect, it } from 'vitest';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'claude-code-export';

// Counts read with python3 over `loglines`: calls = tool_use blocks, results = tool_result
// blocks (errors: is_error), llm = assistant entries (none has a message id, so each counts).
describeCorpus('claude-code-export: corpus exports ({"loglines": [...]})', corpusFilesUnder(dir), () => {
  it('reads both exports entry by entry, as transcript lines', async () => {
    const { result, runs } = await auditCorpus([`${dir}/simonw-sample-session.json`, `${dir}/thayerhealey3-sample-session.json`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['claude-code-export', 1, 39],
      ['claude-code-export', 1, 42],
    ]);
    // python3: every entry of both exports is a "user" or "assistant" record (33 and 35), so none is skipped.
    expect(result.files.map((f) => f.skipped)).toEqual([[], []]);
    expect(runs.map(countRun)).toEqual([
      { runId: null, llm: 15, calls: 12, results: 12, errors: 1, orphans: [], unmatched: [], catalog: [] },
      { runId: null, llm: 16, calls: 13, results: 13, errors: 1, orphans: [], unmatched: [], catalog: [] },
    ]);
    expect(runs[1]!.calls.map((c) => c.tool)).toEqual(['Write', 'Bash', 'TodoWrite', 'Bash', 'Bash', 'Glob', 'Edit', 'Grep', 'Bash', 'Edit', 'Bash', 'Edit', 'Task']);
    expect(runs[0]!.results.find((r) => r.isError)).toMatchObject({ callId: 'toolu_bash_004', tool: 'Bash', loc: { line: 340 } });
    expect(findingList(result)).toEqual([
      ['catalog-missing', 11, null, null, 'run has 12 tool calls but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 340, null, 'toolu_bash_004', `error result of 'Bash' has no machine-readable code (body: "Exit code 1")`],
      ['catalog-missing', 11, null, null, 'run has 13 tool calls but no catalog record: nothing to check the tool names against'],
      ['unstructured-error', 349, null, 'toolu_bash_004', `error result of 'Bash' has no machine-readable code (body: "Exit code 1")`],
    ]);
  });

  it('a broken entry is reported where it begins (an entry that is not an object, at the list), as in a transcript', async () => {
    const doc = { loglines: [{ type: 'assistant', timestamp: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] } }, 'oops', { type: 'user', message: 'no content' }] };
    const { result } = await auditTemp({ 'session.json': JSON.stringify(doc, null, 2) });
    expect(findingList(result).filter(([rule]) => rule === 'malformed-record')).toEqual([
      ['malformed-record', 2, null, null, 'record is a JSON string, not an object'],
      ['malformed-record', 19, null, null, '"message" is a JSON string, not an object'],
    ]);
  });

  it('an entry of a type the transcript reader does not read is counted as skipped, at the line it begins', async () => {
    const doc = { loglines: [{ type: 'summary', summary: 'Adding numbers', leafUuid: 'u1' }, { type: 'assistant', timestamp: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'hi' } }, { type: 'system', subtype: 'compact_boundary' }] };
    const { result } = await auditTemp({ 'session.json': JSON.stringify(doc, null, 2) });
    expect(result.files[0]!.skipped).toEqual([
      { reason: 'record type "summary"', count: 1, firstLine: 3 },
      { reason: 'system record (subtype "compact_boundary") without a tool list', count: 1, firstLine: 16 },
    ]);
  });
});
