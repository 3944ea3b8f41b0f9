import { strToU8, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readEvalArchive } from '../../../src/ingest/inspect/eval-zip.js';
import { auditCorpus, auditTemp, countRun, findingList } from '../corpus.js';
import { corpusFile, corpusFilesUnder, describeCorpus } from '../../public-corpus.js';

const dir = 'inspect';

describeCorpus('inspect: corpus logs', corpusFilesUnder(dir), () => {
  it('reads the tool-call-error log: eleven tool errors whose calls are not in the log', async () => {
    const { result, runs } = await auditCorpus([`${dir}/log_tool_call_error.json`]);
    expect(result.files).toEqual([{ path: `${dir}/log_tool_call_error.json`, format: 'inspect', records: 11, runs: 1, skipped: [], toolCalls: 0, toolResults: 11 }]);
    const ids = Array.from({ length: 11 }, (_, i) => `bash_${i + 1}`);
    expect(runs.map(countRun)).toEqual([{ runId: '1#4', llm: 0, calls: 0, results: 11, errors: 11, orphans: [], unmatched: ids.map((id) => `${id}:bash`), catalog: [] }]);
    expect(runs[0]!.results.map((r) => r.errorCode)).toEqual(['parsing', 'timeout', 'parsing', 'unicode_decode', 'permission', 'file_not_found', 'is_a_directory', 'limit', 'approval', 'unknown', 'output_limit']);
    expect(findingList(result)).toEqual(ids.map((id, i) => ['unmatched-result', 95 + 10 * i, '1#4', id, `result for call id '${id}' ('bash') has no matching call in this run`]));
  });

  it('reads a sample without tools and the .eval archive with its catalog and five paired calls', async () => {
    const { result, runs } = await auditCorpus([`${dir}/log_read_sample.json`, `${dir}/log_message_deduplication.eval`]);
    expect(result.files.map((f) => [f.format, f.runs, f.records])).toEqual([
      ['inspect', 1, 17],
      ['inspect', 1, 1],
    ]);
    expect(runs.map(countRun)).toEqual([
      { runId: '0#1', llm: 6, calls: 5, results: 5, errors: 0, orphans: [], unmatched: [], catalog: ['bash', 'python'] },
      { runId: '1#1', llm: 1, calls: 0, results: 0, errors: 0, orphans: [], unmatched: [], catalog: [] },
    ]);
    const first = runs[0]!.calls[0]!;
    // A .eval entry is minified: a record is placed at <archive>/<entry>:<line of its message in the entry printed
    // with two-space indents> (counted with python's json.dumps(indent=2): messages 1, 3, 5, 7, 9 begin at lines
    // 13, 40, 67, 94, 121; the first model event, events[8], at line 324).
    const entry = `${dir}/log_message_deduplication.eval/samples/0_epoch_1.json`;
    expect([first.loc.file, first.loc.line, first.ts, first.callId, first.tool, first.args]).toEqual([entry, 13, Date.parse('2025-10-06T10:15:45.377442+00:00'), 'hardcoded_0', 'bash', { cmd: 'ls' }]);
    // True on this sample: five bash calls with the same {"cmd":"ls"} and the same answer,
    // and 'python' is offered to every request but never called.
    const lines = [13, 40, 67, 94, 121];
    expect(findingList(result)).toEqual([
      ['retry-storm', 13, '0#1', 'hardcoded_0', "tool 'bash' was called 5 times with identical arguments in this run (lines 13, 40, 67, 94, 121)"],
      ...[1, 2, 3, 4].map((n) => ['redundant-call', lines[n], '0#1', `hardcoded_${n}`, `tool 'bash' repeats the identical call at line ${lines[n - 1]} with no state change between them`]),
      ['unused-tool', 324, '0#1', null, "tool 'python' is in the catalog but the run never called it (5 calls to other tools)"],
      // True: the sample's only tool keys are empty ("tool_calls": null, "tools": [] and null).
      ['ingest-note', 0, null, null, "the file holds no tool calls ('inspect': no tool call or result read, and no tool-shaped content)"],
    ]);
    expect(result.findings.map((f) => f.file)).toEqual([...Array<string>(6).fill(entry), `${dir}/log_read_sample.json`]);
  });
});

function evalZip(entries: Record<string, unknown>): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, value] of Object.entries(entries)) files[name] = strToU8(JSON.stringify(value));
  return zipSync(files);
}

describe('inspect: hand-made archives', () => {
  it('reads a sample from its tool events when it has no messages, and reports a tool error', async () => {
    const sample = {
      id: 'a',
      epoch: 2,
      messages: [],
      events: [
        { event: 'model', timestamp: '2025-01-01T00:00:00Z', tools: [{ name: 'search', parameters: { type: 'object' } }] },
        { event: 'tool', id: 'c1', function: 'search', arguments: { q: 'x' }, timestamp: '2025-01-01T00:00:01Z', completed: '2025-01-01T00:00:02Z', error: { type: 'timeout', message: 'timed out' } },
      ],
    };
    const { result, runs } = await auditTemp({ 'x.eval': evalZip({ 'header.json': { version: 2, eval: {} }, 'samples/a_epoch_2.json': sample }) });
    expect(result.files).toEqual([{ path: 'x.eval', format: 'inspect', records: 4, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    expect(runs.map(countRun)).toEqual([{ runId: 'a#2', llm: 1, calls: 1, results: 1, errors: 1, orphans: [], unmatched: [], catalog: ['search'] }]);
    expect(runs[0]!.results.map((r) => [r.content, r.errorCode, r.ts])).toEqual([['timed out', 'timeout', Date.parse('2025-01-01T00:00:02Z')]]);
  });

  it('puts the tools of each model request right before the llm record of its message', async () => {
    // Request 1 offers only 'search' but the model calls 'fetch'; request 2 offers 'fetch'.
    const call = (id: string) => ({ role: 'assistant', content: '', tool_calls: [{ id, function: 'fetch', arguments: { url: 'u' } }] });
    const sample = {
      id: 's',
      epoch: 1,
      messages: [{ role: 'user', content: 'go' }, call('f1'), { role: 'tool', tool_call_id: 'f1', content: 'ok' }, call('f2'), { role: 'tool', tool_call_id: 'f2', content: 'ok' }],
      events: [
        { event: 'model', tools: [{ name: 'search', parameters: {} }] },
        { event: 'model', tools: [{ name: 'fetch', parameters: {} }] },
      ],
    };
    const { result, runs } = await auditTemp({ 'o.eval': evalZip({ 'header.json': { version: 2, eval: {} }, 'samples/s_epoch_1.json': sample }) });
    expect(runs[0]!.records.map((r) => [r.kind, r.kind === 'catalog' ? r.names.join() : 'callId' in r ? r.callId : null])).toEqual([
      ['catalog', 'search'],
      ['llm', null],
      ['tool_call', 'f1'],
      ['tool_result', 'f1'],
      ['catalog', 'fetch'],
      ['llm', null],
      ['tool_call', 'f2'],
      ['tool_result', 'f2'],
    ]);
    expect(findingList(result).filter((f) => f[0] === 'unknown-tool')).toEqual([
      // The assistant message with f1 begins at line 9 of the entry printed with two-space indents.
      ['unknown-tool', 9, 's#1', 'f1', "tool 'fetch' is not in the run's catalog ('search'): no catalog hash is recorded to tell a wrong catalog from an invented name"],
    ]);
  });

  it('skips entries whose declared size is over the cap and says so', async () => {
    const zip = evalZip({ 'header.json': { version: 2 }, 'samples/big_epoch_1.json': { id: 'big', pad: 'x'.repeat(5000) } });
    const archive = await readEvalArchive(zip, 1000);
    expect(archive.samples).toEqual([]);
    expect(archive.header).toEqual({ version: 2 });
    expect(archive.problems).toEqual(['zip entry "samples/big_epoch_1.json" inflates to 5021 bytes, over the limit of 1000 bytes (limits.max-document-bytes): skipped']);
  });

  it('never inflates past a size the archive declares, even when the data is larger', async () => {
    const zip = evalZip({ 'samples/s_epoch_1.json': { id: 's', pad: 'x'.repeat(100_000) } });
    const buf = Buffer.from(zip);
    const central = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    buf.writeUInt32LE(40, central + 24); // claim 40 bytes uncompressed
    const archive = await readEvalArchive(buf, 1000);
    expect(archive.problems).toEqual(['zip entry "samples/s_epoch_1.json" is not JSON']);
    expect(archive.samples).toEqual([{ name: 'samples/s_epoch_1.json', value: undefined }]);
  });

  it('reports a truncated archive instead of crashing', async () => {
    const zip = evalZip({ 'header.json': { version: 2 } });
    const { result } = await auditTemp({ 'cut.eval': zip.subarray(0, zip.length - 30) });
    // The archive could not be read: its malformed-record says so, and no note speaks of what it holds.
    expect(findingList(result)).toEqual([['malformed-record', 1, null, null, 'not a readable zip archive (invalid zip data)']]);
  });
});

describeCorpus('inspect: a log cut short', corpusFilesUnder(dir), () => {
  it('audits the samples read before the cut, and reports the cut', async () => {
    // The corpus sample (one model turn) as samples 1..100 (1.4 MB: a file this large
    // is read as a stream; a small one that does not parse is not taken for a log at all),
    // cut inside the last.
    const log = JSON.parse(readFileSync(corpusFile(`${dir}/log_read_sample.json`), 'utf8')) as { samples: Array<Record<string, unknown>> };
    log.samples = Array.from({ length: 100 }, (_, i) => ({ ...log.samples[0]!, id: i + 1 }));
    const text = JSON.stringify(log, null, 2);
    const cut = text.slice(0, text.lastIndexOf('"messages"'));
    expect(cut.length).toBeGreaterThan(1024 * 1024);
    const { result, runs } = await auditTemp({ 'cut.json': cut });
    const sample = { llm: 1, calls: 0, results: 0, errors: 0, orphans: [], unmatched: [], catalog: [] };
    expect(runs.map(countRun)).toEqual(Array.from({ length: 99 }, (_, i) => ({ runId: `${i + 1}#1`, ...sample })));
    const malformed = result.findings.filter((f) => f.ruleId === 'malformed-record');
    expect(malformed.map((f) => f.message)).toEqual([expect.stringContaining('the document ends inside samples[99]')]);
  });
});
