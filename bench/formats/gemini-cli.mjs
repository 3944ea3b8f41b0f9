// Gemini CLI chat sessions in their JSONL form (the shape of
// the public corpus's gemini-cli/*.jsonl), sessions one after another: a header line,
// then per turn a user message and a gemini message whose toolCalls[] carries the
// call and its result inline (status success, about 1 in 25 error). Records: one llm,
// one call and one result per gemini message; one run per session.
import { iso, pick, prose } from './write.mjs';

const TOOLS = ['read_file', 'run_shell_command', 'search_file_content', 'replace', 'list_directory'];

export const geminiCli = {
  id: 'gemini-cli',
  baseline: 'lines',
  session(rand, index, counts) {
    const sessionId = `g-${String(index).padStart(6, '0')}`;
    let ts = Date.UTC(2026, 0, 7, 9) + index * 3_600_000;
    const at = () => iso((ts += 500 + Math.floor(rand() * 4000)));
    let text = `${JSON.stringify({ sessionId, projectHash: `${index.toString(16).padStart(8, '0')}${'ab'.repeat(28)}`, startTime: iso(ts), lastUpdated: iso(ts + 600_000) })}\n`;
    counts.lines += 1;
    const turns = 20 + Math.floor(rand() * 60);
    for (let t = 1; t <= turns; t += 1) {
      const tool = pick(rand, TOOLS);
      const failed = rand() < 0.04;
      const callId = `${tool}-${index}-${t}`;
      text += `${JSON.stringify({ id: `${sessionId}-u${t}`, timestamp: at(), type: 'user', content: prose(rand, 120), sessionId })}\n`;
      const response = failed ? { error: `Failed to ${tool}: ${prose(rand, 40)}` } : { output: prose(rand, 400 + Math.floor(rand() * 800)) };
      const call = { id: callId, name: tool, args: { path: `src/module_${Math.floor(rand() * 500)}.ts` }, result: [{ functionResponse: { id: callId, name: tool, response } }], status: failed ? 'error' : 'success', timestamp: at(), displayName: tool };
      text += `${JSON.stringify({ id: `${sessionId}-g${t}`, timestamp: at(), type: 'gemini', content: prose(rand, 150), model: 'gemini-2.5-pro', sessionId, tokens: { input: Math.floor(rand() * 9000), output: Math.floor(rand() * 900) }, toolCalls: [call] })}\n`;
      counts.lines += 2;
      counts.records += 3;
      counts.calls += 1;
      counts.results += 1;
      if (failed) counts.errors += 1;
    }
    return text;
  },
};
