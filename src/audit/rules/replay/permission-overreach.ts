import { z } from 'zod';
import { loadScopeFile, scopeSchema, type Scope } from '../../engine/scope.js';
import { defineRule } from '../rule-types.js';
import { ConfigurationError } from '../../../errors.js';

/** The scope file the option names; a problem is said as the option's (`scope: no such scope file …`). */
function scopeFile(path: string): Scope {
  try {
    return loadScopeFile(path);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(`scope: ${error.message} (relative to the working folder)`, error.code);
  }
}

export const permissionOverreach = defineRule({
  meta: {
    id: 'permission-overreach',
    category: 'replay',
    defaultSeverity: 'error',
    summary: "A call to a tool outside the agent's declared scope ({agent, allowed_tools}).",
    likelyCause: 'The agent was offered (or invented) a tool its role does not need, or the scope file is out of date.',
    nextAction: 'Remove the tool from this agent\'s catalog, or, if the call is legitimate, add it to the scope file in review.',
    options: z.strictObject({
      scope: z
        .union([z.string().min(1).describe('Path of a scope JSON file, relative to the working directory.'), scopeSchema])
        .optional()
        .describe('The declared scope: a path to a scope file, or the scope itself. Without it the rule checks nothing.'),
    }),
  },
  init(options): { scope: Scope; allowed: Set<string> } | null {
    if (options.scope === undefined) return null;
    const scope = typeof options.scope === 'string' ? scopeFile(options.scope) : options.scope;
    return { scope, allowed: new Set(scope.allowed_tools) };
  },
  check(run, ctx, report) {
    const state = ctx.state;
    if (state === null) return;
    for (const call of run.calls) {
      if (state.allowed.has(call.tool)) continue;
      report({
        loc: call.loc,
        runId: run.runId,
        callId: call.callId,
        tool: call.tool,
        message: `tool '${call.tool}' is not in the declared scope for agent '${state.scope.agent}'`,
      });
    }
  },
});
