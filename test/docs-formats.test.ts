import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatById } from '../src/ingest/registry.js';

/** The formats with a page of their own in docs/formats/ (the older ones share frameworks.md and opentelemetry.md). */
const PAGES = ['codex-rollout', 'gemini-cli', 'openhands', 'atif', 'google-adk', 'otel-spans', 'claude-code-export', 'swe-agent', 'mini-swe-agent', 'any-agent', 'gemini-api', 'letta', 'agentbench', 'bedrock'];

describe('docs/formats: a page per format', () => {
  it('go-vcr (no format id: the API readers read it) has a page the README links, naming those readers', () => {
    expect(readFileSync('README.md', 'utf8')).toContain('[go-vcr](docs/formats/go-vcr.md)');
    const page = readFileSync('docs/formats/go-vcr.md', 'utf8');
    for (const id of ['openai', 'anthropic-messages', 'gemini-api', 'bedrock']) expect(page).toContain(`\`${id}\``);
  });

  it.each(PAGES)('%s is registered, has docs/formats/%s.md naming its id, and the README links it', (id) => {
    expect(formatById(id)?.id).toBe(id);
    const page = `docs/formats/${id}.md`;
    expect(existsSync(page)).toBe(true);
    expect(readFileSync(page, 'utf8')).toContain(`Format id: \`${id}\` (force with \`--input-format ${id}\`)`);
    expect(readFileSync('README.md', 'utf8')).toContain(`](docs/formats/${id}.md) |`);
  });
});
