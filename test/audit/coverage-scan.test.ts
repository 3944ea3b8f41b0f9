import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolShapesIn } from '../../src/ingest/facts/tool-shape-text.js';
import { cli } from '../cli/run-cli.js';
import { tempTree } from '../helpers.js';

const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('tool-shaped content in text, whatever the format', () => {
  it('names keys, typed blocks, span attributes and fenced actions; empty values are not tool-shaped', () => {
    expect(toolShapesIn('{"role":"assistant","tool_calls":null,"function_call":[]}')).toEqual([]);
    expect(toolShapesIn('{"tool_calls":[{"id":"c1"}]}')).toEqual(['tool_calls']);
    // JSON quoted in a cassette's body string, and the same body as a YAML mapping.
    expect(toolShapesIn(String.raw`"body": "{\"content\":[{\"type\":\"tool_use\",\"id\":\"t\"}]}"`)).toEqual(['type: tool_use']);
    expect(toolShapesIn('      - type: server_tool_use')).toEqual(['type: server_tool_use']);
    expect(toolShapesIn('"parts":[{"functionCall":{"name":"f"}}]')).toEqual(['functionCall']);
    expect(toolShapesIn('"llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "x"')).toEqual(['tool_call.function.name']);
    expect(toolShapesIn('{"key":"openinference.span.kind","value":{"stringValue":"TOOL"}}')).toEqual(['openinference.span.kind: TOOL']);
    expect(toolShapesIn('{"key":"gen_ai.tool.name","value":"x"}')).toEqual(['gen_ai.tool.name']);
    expect(toolShapesIn('{"content":"THOUGHT: look\\n```bash\\nls\\n```"}')).toEqual(['fenced bash block']);
    expect(toolShapesIn('{"role":"toolbox","content":"```python\\nx\\n```"}')).toEqual([]);
  });
});

describe('a file read with no tool call is never silent', () => {
  const conversation = {
    messages: [
      { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
      { role: 'user', content: 'Fix the bug.' },
      { role: 'assistant', content: 'THOUGHT: list the files.\n\n```bash\nls -la\n```' },
      // Not mini-swe-agent's `<returncode>` observation (that format reads these blocks as calls): a chat no parser reads actions from.
      { role: 'user', content: 'Output:\na.py' },
      { role: 'assistant', content: 'THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```' },
    ],
  };

  it('a parser claims text actions and reads no call: partial-read naming what it saw and the first place; nothing audited, exit 1', async () => {
    const root = tempTree({ 'traj.json': `${JSON.stringify(conversation, null, 1)}\n` });
    const run = await cli(['audit', 'traj.json', '--format', 'json', '--jobs', '1', '-o', 'report.json'], root);
    const report = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8'));
    expect(report.files).toEqual([expect.objectContaining({ path: 'traj.json', toolCalls: 0, toolResults: 0, toolShaped: 2 })]);
    const partial = report.findings.filter((f: { ruleId: string }) => f.ruleId === 'partial-read');
    expect(partial.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([
      [13, `no tool call was read ('${report.files[0].format}'), but the file holds 2 tool-shaped place(s): fenced bash block ×2; first at line 13`],
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('⚠️ nothing audited: no tool call was read from 1 file (1 file holds tool calls that were not read)\n');
  });

  it('an empty file: one note that says the file is empty; exit 1, or 0 with --allow-empty and the same message', async () => {
    const root = tempTree({ 'empty.jsonl': '' });
    const run = await cli(['audit', 'empty.jsonl'], root);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('⚠️ nothing audited: no tool call was read from 1 file');
    expect(run.stdout).toContain("note      ingest-note  empty.jsonl  -    -     the file is empty ('native-jsonl': no record, only white space or nothing at all): its writer wrote no trace");
    expect(run.stdout).not.toMatch(/^No findings\.$/m);
    const allowed = await cli(['audit', 'empty.jsonl', '--allow-empty'], root);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.split('\n')[0]).toBe(lines[0]);
  });

  it('a file with calls gets neither, and -o prints the one-line verdict to stderr', async () => {
    const root = tempTree({
      'ok.jsonl': jsonl(
        { run_id: 'r', kind: 'catalog', tools: [{ name: 'ls', schema_sha256: null }] },
        { run_id: 'r', kind: 'tool_call', call_id: 'c1', tool: 'ls', args: {} },
        { run_id: 'r', kind: 'tool_result', call_id: 'c1', tool: 'ls', result: 'a.py' },
      ),
    });
    const run = await cli(['audit', 'ok.jsonl', '-f', 'json', '-o', 'report.json', '--fail-on', 'never'], root);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toMatch(/^✅ not gated \(fail-on: never\): /);
  });
});
