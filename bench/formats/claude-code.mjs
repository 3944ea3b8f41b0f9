// Claude Code session transcripts (the shape of the public corpus's claude-code/ files), many
// sessions one after another as a harness that saves them to one file writes them: per
// turn an assistant line with text and a tool_use block, then a user line with its
// tool_result (about 1 in 25 an error). Records: one llm and one call per assistant
// line, one result per user line; one run per session.
import { iso, pick, prose, TOOLS } from './write.mjs';

export const claudeCode = {
  id: 'claude-code',
  baseline: 'lines',
  session(rand, index, counts) {
    const sessionId = `sess-${String(index).padStart(6, '0')}`;
    const turns = 20 + Math.floor(rand() * 60);
    let ts = Date.UTC(2026, 0, 5, 9) + index * 3_600_000;
    const common = `"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"${sessionId}","version":"2.0.14"`;
    let text = `{"type":"user","timestamp":"${iso(ts)}","parentUuid":null,${common},"uuid":"${sessionId}-u0","message":{"role":"user","content":[{"type":"text","text":${JSON.stringify(prose(rand, 200))}}]}}\n`;
    counts.lines += 1;
    for (let t = 1; t <= turns; t += 1) {
      const tool = pick(rand, TOOLS);
      const call = `toolu_${sessionId}_${t}`;
      ts += 1000 + Math.floor(rand() * 5000);
      const input = tool === 'Bash' ? { command: `npm test -- ${prose(rand, 30)}`, description: 'Run the tests' } : { file_path: `/home/dev/app/src/module_${Math.floor(rand() * 500)}.ts` };
      text += `{"type":"assistant","timestamp":"${iso(ts)}","parentUuid":"${sessionId}-u${t - 1}",${common},"uuid":"${sessionId}-a${t}","requestId":"req_${sessionId}_${t}","message":{"id":"msg_${sessionId}_${t}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":${JSON.stringify(prose(rand, 150))}},{"type":"tool_use","id":"${call}","name":"${tool}","input":${JSON.stringify(input)}}],"stop_reason":"tool_use","usage":{"input_tokens":${Math.floor(rand() * 9000)},"output_tokens":${Math.floor(rand() * 900)}}}}\n`;
      const failed = rand() < 0.04;
      ts += 200 + Math.floor(rand() * 3000);
      const body = failed ? `Error: ENOENT: no such file or directory, open '/home/dev/app/src/missing_${t}.ts'` : prose(rand, 400 + Math.floor(rand() * 800));
      text += `{"type":"user","timestamp":"${iso(ts)}","parentUuid":"${sessionId}-a${t}",${common},"uuid":"${sessionId}-u${t}","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${call}","content":${JSON.stringify(body)},"is_error":${failed}}]},"toolUseResult":{"stdout":"","stderr":"","interrupted":false}}\n`;
      counts.lines += 2;
      counts.records += 3;
      counts.calls += 1;
      counts.results += 1;
      if (failed) counts.errors += 1;
    }
    return text;
  },
};
