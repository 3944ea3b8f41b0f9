// The per-format generators of the bench (and of the tests of flat memory), by format id.
import { claudeCode } from './claude-code.mjs';
import { codex } from './codex.mjs';
import { geminiCli } from './gemini-cli.mjs';
import { mcp } from './mcp.mjs';
import { toolEvents } from './tool-events.mjs';

export { writeSessions } from './write.mjs';
export const GENERATORS = [claudeCode, codex, geminiCli, toolEvents, mcp];
