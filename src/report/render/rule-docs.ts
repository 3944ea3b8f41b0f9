/** The project's home page, and where each rule's docs page lives (docs/rules/<id>.md). */
export const PROJECT_URL = 'https://github.com/agent-trace-audit/agent-trace-audit';

/** The docs page of a rule id from our registry (ids are [a-z0-9-], never trace text). */
export function ruleDocsUrl(ruleId: string): string {
  return `${PROJECT_URL}/blob/main/docs/rules/${encodeURIComponent(ruleId)}.md`;
}
