import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { materialize, runAudit } from '../../../../src/audit/engine/engine.js';
import { resolveConfig } from '../../../../src/config/config.js';
import { auditFiles, findingsOf, jsonl, tempTree } from '../../../helpers.js';

const dirty = readFileSync('test/fixtures/replay/session-dirty.jsonl', 'utf8');
const scope = { agent: 'docs-reader', allowed_tools: ['read_file', 'list_dir', 'search'] };

describe('permission-overreach', () => {
  it('flags a call outside an inline scope', async () => {
    const audit = await auditFiles({ 'session.jsonl': dirty }, { rules: { 'permission-overreach': { scope } } });
    expect(findingsOf(audit, 'permission-overreach')).toEqual([
      { line: 5, callId: 'index:4', tool: 'write_file', runId: null, message: "tool 'write_file' is not in the declared scope for agent 'docs-reader'" },
    ]);
  });

  it('reads the scope from a file and matches names exactly, in every run', async () => {
    const root = tempTree({
      'scope.json': JSON.stringify({ agent: 'ops', allowed_tools: ['ls', 'constructor'] }),
      't.jsonl': jsonl(
        { run_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'ls' },
        { run_id: 'a', kind: 'tool_call', call_id: 'c2', tool: 'LS' },
        { run_id: 'b', kind: 'tool_call', call_id: 'c1', tool: 'constructor' },
        { run_id: 'b', kind: 'tool_call', call_id: 'c2', tool: 'toString' },
      ),
    });
    // A scope file named in the configuration is read relative to, and inside, the working folder (src/io/confine.ts).
    const cwd = process.cwd();
    process.chdir(root);
    let audit;
    try {
      const config = resolveConfig({ rules: { 'permission-overreach': { scope: 'scope.json' } } });
      audit = materialize(await runAudit([{ path: join(root, 't.jsonl'), display: 't.jsonl' }], config));
    } finally {
      process.chdir(cwd);
    }
    expect(findingsOf(audit, 'permission-overreach')).toEqual([
      { line: 2, callId: 'c2', tool: 'LS', runId: 'a', message: "tool 'LS' is not in the declared scope for agent 'ops'" },
      { line: 4, callId: 'c2', tool: 'toString', runId: 'b', message: "tool 'toString' is not in the declared scope for agent 'ops'" },
    ]);
  });

  it('checks nothing without a declared scope, and nothing when every tool is allowed', async () => {
    expect(findingsOf(await auditFiles({ 'session.jsonl': dirty }), 'permission-overreach')).toEqual([]);
    const all = { ...scope, allowed_tools: [...scope.allowed_tools, 'write_file'] };
    expect(findingsOf(await auditFiles({ 'session.jsonl': dirty }, { rules: { 'permission-overreach': { scope: all } } }), 'permission-overreach')).toEqual([]);
  });

  it('refuses a scope file whose path leads out of the working folder, into .git, or to a device, naming no target', async () => {
    const root = tempTree({ 't.jsonl': jsonl({ run_id: 'a', kind: 'tool_call', call_id: 'c1', tool: 'ls' }), '.git/scope.json': '{"agent":"a","allowed_tools":[]}' });
    symlinkSync('/proc/self', join(root, 'proc'));
    symlinkSync('/dev/urandom', join(root, 'random.json'));
    symlinkSync('.git', join(root, 'meta'));
    const cases: Array<[string, string]> = [
      ['proc/status', 'cannot read scope file "proc/status": a symlink that leaves the working folder'],
      ['random.json', 'cannot read scope file "random.json": a symlink that leaves the working folder'],
      ['meta/scope.json', 'cannot read scope file "meta/scope.json": a symlink into .git'],
      ['/etc/hostname', 'cannot read scope file "/etc/hostname": outside the working folder'],
    ];
    const cwd = process.cwd();
    process.chdir(root);
    try {
      for (const [scope, message] of cases) {
        // Read when the configuration is resolved: the problem names the key and the file as written.
        expect(() => resolveConfig({ rules: { 'permission-overreach': { scope } } }, {}, 'c.yml')).toThrow(`c.yml: rules.permission-overreach.scope: ${message} (relative to the working folder)`);
      }
    } finally {
      process.chdir(cwd);
    }
  });
});
