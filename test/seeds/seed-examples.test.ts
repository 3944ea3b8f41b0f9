import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

/**
 * Each seed article's own example, audited by the CLI: the exact findings and the
 * exit code. Fixtures and where they come from: test/fixtures/seeds/README.md.
 */
const DIR = 'test/fixtures/seeds';

async function audit(file: string): Promise<{ code: number; findings: Array<[string, number, string | null, string]> }> {
  const { code, stdout } = await cli(['audit', file, '--format', 'json'], DIR);
  const report = JSON.parse(stdout) as { findings: Array<{ ruleId: string; line: number; callId: string | null; message: string }> };
  return { code, findings: report.findings.map((f) => [f.ruleId, f.line, f.callId, f.message]) };
}

const CATALOG_NOTE: [string, number, null, string] = ['catalog-missing', 2, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'];

describe('seed 000: catalog', () => {
  it("the tracer's own output: the three flag groups the article prints, and the pairing bug branch", async () => {
    expect(await audit('000-catalog-trace.jsonl')).toEqual({
      code: 1,
      findings: [
        ['unused-tool', 1, null, "tool 'grep' is in the catalog but the run never called it (2 calls to other tools)"],
        ['unused-tool', 1, null, "tool 'read_file' is in the catalog but the run never called it (2 calls to other tools)"],
        ['unknown-tool', 2, 'call_run_tests_1', "tool 'run_tests' is not in the run's catalog ('grep', 'pytest', 'read_file'): the recorded catalog hash matches these names, so the model invented a tool"],
        ['unstructured-error', 3, 'call_run_tests_1', 'error result of \'run_tests\' has no machine-readable code (body: "unknown tool: run_tests")'],
        ['unmatched-result', 6, 'call_missing_9', "result for call id 'call_missing_9' ('read_file') has no matching call in this run; the catalog hash matches the run's: likely a runtime pairing bug (check call id allocation and log order)"],
      ],
    });
  });

  it('a call whose schema_sha256 is not its run\'s catalog entry: definition drift within the run', async () => {
    expect(await audit('000-catalog-drift.jsonl')).toEqual({
      code: 0,
      findings: [
        ['unused-tool', 1, null, "tool 'grep' is in the catalog but the run never called it (1 call to other tools)"],
        ['unused-tool', 1, null, "tool 'pytest' is in the catalog but the run never called it (1 call to other tools)"],
        ['schema-drift', 2, 'call_read_1', "call 'call_read_1' to 'read_file' carries schema hash 1bb14c117a0a83828ff2ef853d0446c0db22fbfbc922ec58a81e215912a4ca17, but its run's catalog (line 1) has 923b083c9bcab2e3d3e07c7d9b4401688ad9f3d5e2c2f0c48fcd43052bdcb71b: the definition changed under the same name"],
      ],
    });
  });

  it('two catalogs in one run: the result without a call is put down to mixed files', async () => {
    expect(await audit('000-catalog-mixed.jsonl')).toEqual({
      code: 1,
      findings: [
        ['unused-tool', 1, null, "tool 'grep' is in the catalog but the run never called it (2 calls to other tools)"],
        ['unused-tool', 1, null, "tool 'read_file' is in the catalog but the run never called it (2 calls to other tools)"],
        ['catalog-mismatch', 4, 'call_pytest_2', "record carries catalog_sha256 0afbf960c0d3fec778c880a8cfb6b1139a86626edd57d3dd978d215bd75ca48b, but its run's catalog (line 1) hashes to ac5bb72668277d083e9f295d58038aebbcf0feebb4ec0442c7888964f4384eeb"],
        ['orphan-call', 4, 'call_pytest_2', "call 'call_pytest_2' to 'pytest' has no result (the run went on without it, with no llm span after it)"],
        ['unmatched-result', 5, 'call_missing_9', "result for call id 'call_missing_9' ('read_file') has no matching call in this run; the run carries more than one catalog hash: likely mixed JSONL files (two runs or files in one)"],
      ],
    });
  });
});

describe('seed 001: pairing', () => {
  it('the reconstructed incident: an orphan, and the model went on', async () => {
    expect(await audit('001-incident.jsonl')).toEqual({
      code: 1,
      findings: [
        CATALOG_NOTE,
        ['continued-while-outstanding', 2, 'c_9', "the model produced 1 llm span(s) while call 'c_9' to 'web_search' was outstanding (first at line 3) and no result ever arrived"],
        ['orphan-call', 2, 'c_9', "call 'c_9' to 'web_search' has no result (the model kept generating afterwards)"],
      ],
    });
  });

  it('following the advice, a blocked_on span instead of a delta: read, no continued-while-outstanding, a tool stall', async () => {
    expect(await audit('001-blocked-on.jsonl')).toEqual({
      code: 1,
      findings: [CATALOG_NOTE, ['orphan-call', 2, 'c_9', "call 'c_9' to 'web_search' has no result (the run waited for it (blocked_on at line 3) and no result arrived: a tool stall)"]],
    });
    expect(await audit('001-blocked-on-answered.jsonl')).toEqual({ code: 0, findings: [CATALOG_NOTE] });
  });

  it('an LLM stall: five minutes without a delta, nothing outstanding (no tool call read: nothing audited, exit 1)', async () => {
    expect(await audit('001-llm-stall.jsonl')).toEqual({
      code: 1,
      findings: [
        ['ingest-note', 0, null, "the file holds no tool calls ('native-jsonl': no tool call or result read, and no tool-shaped content)"],
        ['llm-stall', 2, null, 'no model output for 300 s (from line 1 to this llm span) with no tool call outstanding (gap 8 s)'],
      ],
    });
  });

  it('missing ids: paired by order with a note, and the unpaired call is still an orphan', async () => {
    expect(await audit('001-no-ids.jsonl')).toEqual({
      code: 1,
      findings: [
        ['catalog-missing', 1, null, 'run has 2 tool calls but no catalog record: nothing to check the tool names against'],
        ['ingest-note', 1, null, '1 call without a call id paired with its result by order (the next id-less result of the same tool); 1 id-less call found no result and is reported as orphan-call'],
        ['orphan-call', 3, null, "call without a call id to 'web_search' has no result (nothing followed it in the run)"],
      ],
    });
  });
});

describe('seed 002: error hygiene', () => {
  it('the traceback not flagged is_error is an error result to every hygiene rule; its whole block is ~275 of the 280 tokens, twice', async () => {
    expect(await audit('002-unflagged-traceback.jsonl')).toEqual({
      code: 0,
      findings: [
        ['catalog-missing', 1, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
        ['internal-detail-leak', 2, 'c_4', "the error result of 'update_ticket' exposes internals: service path '/srv/agent-gateway/dispatch.py', SQL statement, library/runtime version 'python3.12', database constraint/enum detail, database DETAIL/CONTEXT line"],
        ['stack-trace-in-result', 2, 'c_4', "Python traceback (4 frames, ~275 tokens) in the result of 'update_ticket'; re-read on 2 later llm turns: ~550 tokens"],
        ['unstructured-error', 2, 'c_4', 'error result of \'update_ticket\' has no machine-readable code (body: "Traceback (most recent call last):")'],
      ],
    });
  });

  it('the str(exc) body, not flagged: still an error without a code, still a leak', async () => {
    expect(await audit('002-unflagged-str-exc.jsonl')).toEqual({
      code: 0,
      findings: [
        ['catalog-missing', 1, null, 'run has 1 tool call but no catalog record: nothing to check the tool names against'],
        ['internal-detail-leak', 2, 'c_5', "the error result of 'update_ticket' exposes internals: database constraint/enum detail"],
        ['unstructured-error', 2, 'c_5', 'error result of \'update_ticket\' has no machine-readable code (body: "invalid input value for enum ticket_status: "OPEN"")'],
      ],
    });
  });
});

describe('seed 003: boundary records', () => {
  it('its pretty-printed record is read, and the placeholder hashes are a malformed-record (the record is dropped, so its tool_call_id is a partial-read)', async () => {
    expect(await audit('003-record.json')).toEqual({
      code: 1,
      findings: [
        ['malformed-record', 1, null, 'boundary record "process_sha256" is not a SHA-256 hex digest (64 hex digits): "replace-with-real-sha256"; a placeholder left in place of the real hash?'],
        ['partial-read', 3, null, "no tool call was read ('boundary-json'), but the file holds 1 tool-shaped place(s): tool_call_id ×1; first at line 3"],
      ],
    });
  });

  it('with real hashes: the shrink hop, and a re-serialization told apart by the canonical adapter hash', async () => {
    expect(await audit('003-records.json')).toEqual({
      code: 0,
      findings: [
        ['payload-mutation', 2, 'call_91', "call 'call_91': adapter_shrink: the adapter removed bytes from the tool output (36 → 20 → 20 bytes); hand to adapter author"],
        ['payload-mutation', 15, 'call_92', "call 'call_92': adapter_shrink: the adapter removed bytes from the tool output (23 → 20 → 20 bytes); its canonical hash equals the process output's: only the serialization changed (key order, whitespace); hand to adapter author"],
      ],
    });
  });
});

describe('seed 004: replay numbers', () => {
  it('integers past 2^53 stay distinct and 1 is not 1.0: no false redundant-call or non-determinism', async () => {
    expect(await cli(['replay', '004-numbers.jsonl'], DIR)).toEqual({ code: 0, stdout: 'calls: 5\ndivergence: none\nfindings: 0\n', stderr: '' });
  });

  it('an index of 0.0 or 1e0 is not an integer token: a usage error', async () => {
    expect(await cli(['replay', '004-index-float.jsonl'], DIR)).toEqual({ code: 2, stdout: '', stderr: 'malformed-transcript: 004-index-float.jsonl:1: replay "index" must be an integer token, not 0.0\n' });
    expect(await cli(['replay', '004-index-exponent.jsonl'], DIR)).toEqual({ code: 2, stdout: '', stderr: 'malformed-transcript: 004-index-exponent.jsonl:2: replay "index" must be an integer token, not 1e0\n' });
  });
});
