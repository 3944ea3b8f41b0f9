import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../src/version.js';
import { tempTree } from '../../helpers.js';
import { corpusFile, itCorpus } from '../../public-corpus.js';

/** Runs the bundled CLI (dist/cli.js) in `cwd`; its configuration is the agent-trace-audit.yml there. */
function cli(args: string[], cwd: string) {
  const run = spawnSync(process.execPath, [resolve('dist/cli.js'), ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] } });
  return { code: run.status, lines: run.stdout.split('\n'), stderr: run.stderr };
}

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const toolSpan = (span: number, result: string) => ({
  traceId: '0'.repeat(31) + '1',
  spanId: span.toString(16).padStart(16, '0'),
  name: 'execute_tool ls',
  startTimeUnixNano: String(1_780_000_000_000_000_000n + BigInt(span) * 1_000_000n),
  endTimeUnixNano: String(1_780_000_000_000_000_000n + BigInt(span) * 1_000_000n + 500_000n),
  attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'ls'), attr('gen_ai.tool.call.id', `c${span}`), attr('gen_ai.tool.call.result', result)],
});

describe('past a documented limit: one clear finding naming the limit and its setting, never an internal error', () => {
  it('an OpenAI conversation object (read whole) larger than limits.max-document-bytes', () => {
    const conversation = { id: 'big', messages: [{ role: 'user', content: 'x'.repeat(2_000_000) }, { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: '{}' } }] }] };
    const root = tempTree({ 'conv.json': JSON.stringify(conversation, null, 2), 'agent-trace-audit.yml': 'limits:\n  max-document-bytes: 1000000\n' });
    const run = cli(['audit', 'conv.json'], root);
    rmSync(root, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    // The verdict first: the conversation holds a tool call that was not read.
    expect(run.lines.slice(0, 2)).toEqual([
      '⚠️ nothing audited: no tool call was read from 1 file (1 file holds tool calls that were not read); ❌ 1 error',
      `agent-trace-audit ${VERSION}: 1 file(s), 0 run(s), 0 tool call(s), 0 result(s)`,
    ]);
    expect(run.lines.filter((l) => l.startsWith('error') && l.includes('malformed-record') && l.includes('conv.json:1'))).toEqual([
      expect.stringContaining('a conversation object or cassette is longer than the limit of 1000000 bytes (limits.max-document-bytes), which this format reads whole; it was not read'),
    ]);
  });

  it('a span of a streamed OTLP document larger than limits.max-element-bytes is passed over; the spans around it are read', () => {
    const doc = { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 't' }, spans: [toolSpan(1, 'ok'), toolSpan(2, 'y'.repeat(1_500_000)), toolSpan(3, 'ok')] }] }] };
    const root = tempTree({ 'otlp.json': JSON.stringify(doc, null, 2), 'agent-trace-audit.yml': 'limits:\n  max-element-bytes: 1000000\n' });
    const run = cli(['audit', 'otlp.json', '--fail-on', 'never'], root);
    rmSync(root, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines.slice(0, 2)).toEqual(['✅ not gated (fail-on: never): 1 error, 1 note', `agent-trace-audit ${VERSION}: 1 file(s), 1 run(s), 2 tool call(s), 2 result(s)`]);
    // The second span's `{` is on line 44 of the pretty-printed document, two lines above its spanId
    // (line 46; counted with python3's json.dumps(indent=2), which writes the same text).
    expect(run.lines.filter((l) => l.startsWith('error') && l.includes('malformed-record') && l.includes('otlp.json:44'))).toEqual([
      expect.stringContaining('resourceSpans[0].scopeSpans[0].spans[1] is longer than the limit of 1000000 bytes (limits.max-element-bytes); it was passed over'),
    ]);
  });

  // The formats read whole (docs/formats/frameworks.md): past the limit, one finding at line 1 naming it.
  // `partly`: the verdict says the file holds tool calls that were not read (the formats that can tell from the bytes).
  const pastDocumentLimit = (name: string, content: string | Uint8Array, what: string, partly: boolean) => {
    const root = tempTree({ [name]: content, 'agent-trace-audit.yml': 'limits:\n  max-document-bytes: 1000000\n' });
    const run = cli(['audit', name], root);
    rmSync(root, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.lines.slice(0, 2)).toEqual([
      `⚠️ nothing audited: no tool call was read from 1 file${partly ? ' (1 file holds tool calls that were not read)' : ''}; ❌ 1 error`,
      `agent-trace-audit ${VERSION}: 1 file(s), 0 run(s), 0 tool call(s), 0 result(s)`,
    ]);
    expect(run.lines.filter((l) => l.startsWith('error'))).toEqual([
      expect.stringMatching(new RegExp(`^error +malformed-record +${name.replace('.', '\\.')}:1 .* ${what} is longer than the limit of 1000000 bytes \\(limits\\.max-document-bytes\\), which this format reads whole; it was not read$`)),
    ]);
  };

  it('an Anthropic Messages request (read whole) larger than limits.max-document-bytes', () => {
    const request = {
      model: 'claude',
      tools: [{ name: 'ls', input_schema: { type: 'object' } }],
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(2_000_000) }] },
      ],
    };
    pastDocumentLimit('messages.json', JSON.stringify(request, null, 2), 'the document', true);
  });

  itCorpus('an Anthropic VCR cassette (YAML, parsed whole) larger than limits.max-document-bytes', ['cassettes/openllmetry-anthropic-tools.yaml'], () => {
    const cassette = readFileSync(corpusFile('cassettes/openllmetry-anthropic-tools.yaml'), 'utf8');
    pastDocumentLimit('cassette.yaml', `${cassette}${'# padding\n'.repeat(110_000)}`, 'a cassette', false);
  });

  itCorpus('an Inspect .eval archive (a zip, read whole) larger than limits.max-document-bytes', ['inspect/log_message_deduplication.eval'], () => {
    const archive = readFileSync(corpusFile('inspect/log_message_deduplication.eval'));
    // Bytes after the archive (a zip's readers find its directory from the end, so this one is no longer readable; the size is checked first).
    pastDocumentLimit('log.eval', Buffer.concat([archive, Buffer.alloc(1_100_000)]), 'an .eval archive', false);
  });
});
