import { RULES } from '../../audit/rules/index.js';

const META = new Map(RULES.map((rule) => [rule.meta.id, rule.meta]));

/**
 * Likely cause and next action of a rule, as one collapsed `<details>`: the
 * text comes from our rule registry by id, never from the report (a report
 * read in publish mode was written by a job a fork controls). Empty for an id
 * we do not know.
 */
export function ruleGuidance(ruleId: string): string[] {
  const meta = META.get(ruleId);
  if (!meta) return [];
  return [
    `<details><summary><code>${meta.id}</code>: ${escapeHtml(meta.summary)}</summary>`,
    '',
    `**Likely cause:** ${meta.likelyCause}`,
    '',
    `**Next action:** ${meta.nextAction}`,
    '',
    '</details>',
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
