// Codex CLI rollouts (the shape of the public corpus's codex/ files) written one after another
// into one file: per rollout a session_meta and turn_context, then turns of a user
// message, reasoning, an assistant message and a shell function_call with its
// function_call_output (a JSON string with metadata.exit_code; about 1 in 25 non-zero).
// Records: one llm (reasoning, message and call are one model turn) and one call per
// turn, one result per output; one run per rollout.
import { iso, prose } from './write.mjs';

export const codex = {
  id: 'codex-rollout',
  baseline: 'lines',
  session(rand, index, counts) {
    const id = `0199a1c2-${String(index).padStart(4, '0')}-7000-8000-${String(index).padStart(12, '0')}`;
    let ts = Date.UTC(2026, 0, 6, 9) + index * 3_600_000;
    const line = (type, payload) => `{"timestamp":"${iso((ts += 500 + Math.floor(rand() * 2000)))}","type":"${type}","payload":${JSON.stringify(payload)}}\n`;
    let text = line('session_meta', { id, timestamp: iso(ts), cwd: '/home/dev/app', originator: 'codex_cli_rs', cli_version: '0.77.0', source: 'cli', model_provider: 'openai' });
    text += line('turn_context', { cwd: '/home/dev/app', approval_policy: 'on-request', model: 'gpt-5-codex', effort: 'medium' });
    counts.lines += 2;
    const turns = 20 + Math.floor(rand() * 60);
    for (let t = 1; t <= turns; t += 1) {
      const callId = `call_${index}_${t}`;
      const failed = rand() < 0.04;
      text += line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prose(rand, 120) }] });
      text += line('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: prose(rand, 160) }], content: null, encrypted_content: null });
      text += line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: prose(rand, 120) }] });
      text += line('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', `rg -n ${prose(rand, 12)} src`], workdir: '/home/dev/app' }), call_id: callId });
      const output = JSON.stringify({ output: prose(rand, 400 + Math.floor(rand() * 800)), metadata: { exit_code: failed ? 1 : 0, duration_seconds: 0.4 } });
      text += line('response_item', { type: 'function_call_output', call_id: callId, output });
      counts.lines += 5;
      counts.records += 3;
      counts.calls += 1;
      counts.results += 1;
      if (failed) counts.errors += 1;
    }
    return text;
  },
};
