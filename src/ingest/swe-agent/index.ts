import { indexLines } from '../read/json-locate.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { largeDocumentHead, parseDocument } from '../read/whole-document.js';
import { isMiniSweAgent, MINI_MARK, miniMessages, readMiniSweAgent } from './mini.js';
import { isSweAgentTrajectory, readSweAgentTrajectory } from './trajectory.js';

/** The opening of a trajectory too large to parse for detection: `{"environment": "…", "trajectory": [{"action": …`. */
const TRAJ_HEAD = /^\{\s*("environment"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?"trajectory"\s*:\s*\[\s*\{\s*"action"\s*:/;

/** The opening of a history-only trajectory too large to parse: `{"history": [{… "message_type": "system_prompt"`. */
const HISTORY_HEAD = /^\{\s*"history"\s*:\s*\[\s*\{[^{}]*"message_type"\s*:\s*"(system_prompt|observation|action|thought|demonstration)"/;

export function isSweAgentFile(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  return head !== null ? TRAJ_HEAD.test(head) || HISTORY_HEAD.test(head) : isSweAgentTrajectory(sample.document);
}

export function isMiniSweAgentFile(sample: DetectSample): boolean {
  const head = largeDocumentHead(sample);
  return head !== null ? MINI_MARK.test(head) && /^[[{]/.test(head) : isMiniSweAgent(sample.document);
}

/**
 * SWE-agent trajectories (`.traj`): one run per file. Function-calling
 * trajectories are read from `history` (tool_calls and tool messages'
 * `tool_call_ids`), text-action ones from `trajectory` steps (see trajectory.ts).
 */
export const sweAgentFormat: TraceFormat = {
  id: 'swe-agent',
  description: 'SWE-agent trajectories (.traj: trajectory steps and message history)',
  detect: (sample) => (isSweAgentFile(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    const doc = await parseDocument(input, sink);
    if (doc === null) return;
    if (!isSweAgentTrajectory(doc.value)) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not a SWE-agent trajectory (no history list, with a trajectory list of {action, observation} steps or SWE-agent message types)' });
      return;
    }
    readSweAgentTrajectory(doc.value, { file: input.file, lineOf: indexLines(doc.text, 4), sink });
    sink.endRun?.(null);
  },
};

/**
 * mini-swe-agent trajectories (`.traj.json`): a list of role/content messages
 * (or `{info, messages, trajectory_format}`) where each assistant message's one
 * fenced bash block is the action and the next user message its observation.
 */
export const miniSweAgentFormat: TraceFormat = {
  id: 'mini-swe-agent',
  description: 'mini-swe-agent trajectories (.traj.json: messages whose fenced bash block is the action)',
  detect: (sample) => (isMiniSweAgentFile(sample) ? Evidence.signature : Evidence.none),
  async parse(input, sink) {
    const doc = await parseDocument(input, sink);
    if (doc === null) return;
    const found = miniMessages(doc.value);
    if (found === null) {
      sink.diagnostic({ ruleId: 'malformed-record', line: 1, message: 'not a mini-swe-agent trajectory (no list of messages)' });
      return;
    }
    readMiniSweAgent(found.messages, found.path, { file: input.file, lineOf: indexLines(doc.text, 4), sink });
    sink.endRun?.(null);
  },
};
