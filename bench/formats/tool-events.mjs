// Claude Code hook inputs logged as JSONL (the shape of
// test/fixtures/tool-events/claude-code-hooks.jsonl), sessions one after another: a
// UserPromptSubmit line, then per call a PreToolUse and a PostToolUse line without a
// call id (paired by order; about 1 in 25 a PostToolUseFailure). Records: one call per
// PreToolUse, one result per PostToolUse; the prompt lines are skipped; one run per session.
import { iso, pick, prose, TOOLS } from './write.mjs';

export const toolEvents = {
  id: 'tool-events',
  baseline: 'lines',
  session(rand, index, counts) {
    const session = `${String(index).padStart(8, '0')}-6a0f-4d8e-9a55-0c1d2b7e8f10`;
    let ts = Date.UTC(2026, 0, 8, 9) + index * 3_600_000;
    const common = `"session_id":"${session}","transcript_path":"/home/dev/.claude/projects/-home-dev-app/${session}.jsonl","cwd":"/home/dev/app"`;
    let text = `{${common},"hook_event_name":"UserPromptSubmit","prompt":${JSON.stringify(prose(rand, 120))},"timestamp":"${iso(ts)}"}\n`;
    counts.lines += 1;
    const calls = 20 + Math.floor(rand() * 60);
    for (let c = 0; c < calls; c += 1) {
      const tool = pick(rand, TOOLS);
      const input = { file_path: `/home/dev/app/src/module_${Math.floor(rand() * 500)}.ts`, description: prose(rand, 40) };
      ts += 500 + Math.floor(rand() * 3000);
      text += `{${common},"hook_event_name":"PreToolUse","tool_name":"${tool}","tool_input":${JSON.stringify(input)},"timestamp":"${iso(ts)}"}\n`;
      const failed = rand() < 0.04;
      ts += 200 + Math.floor(rand() * 3000);
      text += failed
        ? `{${common},"hook_event_name":"PostToolUseFailure","tool_name":"${tool}","tool_input":${JSON.stringify(input)},"error":${JSON.stringify(`Command failed: ${prose(rand, 60)}`)},"timestamp":"${iso(ts)}"}\n`
        : `{${common},"hook_event_name":"PostToolUse","tool_name":"${tool}","tool_input":${JSON.stringify(input)},"tool_response":{"stdout":${JSON.stringify(prose(rand, 400 + Math.floor(rand() * 800)))},"stderr":"","interrupted":false},"timestamp":"${iso(ts)}"}\n`;
      counts.lines += 2;
      counts.records += 2;
      counts.calls += 1;
      counts.results += 1;
      if (failed) counts.errors += 1;
    }
    return text;
  },
};
