import type { AuditInput } from '../model/audit.js';
import type { Report } from '../report/schema.js';
import { sanitizeText } from '../sanitize/text.js';
import type { ArtifactRead } from '../github/artifacts/collect-artifacts.js';

/** The report with the artifacts read listed (name, id, digest, trace files read from it), in name order. */
export function withArtifacts(report: Report, read: readonly ArtifactRead[], inputs: readonly AuditInput[]): Report {
  const artifacts = [...read]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((a) => ({
      name: sanitizeText(a.name, { maxChars: 300 }),
      id: a.id,
      digest: a.digest,
      files: inputs.filter((input) => input.display.startsWith(`${a.name}/`)).length,
    }));
  return { ...report, artifacts };
}
