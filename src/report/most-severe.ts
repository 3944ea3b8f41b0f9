import { SEVERITIES, SEVERITY_RANK, type Finding } from '../model/finding.js';

const MOST_SEVERE_FIRST = [...SEVERITIES].sort((a, b) => SEVERITY_RANK[b] - SEVERITY_RANK[a]);

/**
 * Up to `max` findings for an output that cannot hold them all (SARIF for code
 * scanning, the HTML page): every error before any warning before any note, and
 * the chosen ones kept in report order.
 */
export function mostSevere(findings: readonly Finding[], max: number): { readonly kept: readonly Finding[]; readonly omitted: number } {
  if (findings.length <= max) return { kept: findings, omitted: 0 };
  const chosen = new Set<Finding>();
  for (const severity of MOST_SEVERE_FIRST) {
    for (const finding of findings) {
      if (chosen.size === max) break;
      if (finding.severity === severity) chosen.add(finding);
    }
  }
  return { kept: findings.filter((finding) => chosen.has(finding)), omitted: findings.length - chosen.size };
}
