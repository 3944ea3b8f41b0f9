import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config.js';
import { tempDir } from '../helpers.js';

async function problem(yaml: string): Promise<string> {
  const path = join(tempDir(), 'agent-trace-audit.yml');
  writeFileSync(path, yaml);
  try {
    await loadConfigFile(path);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('configuration typos: did you mean, as for flags', () => {
  it('names the nearest key, rule id and option', async () => {
    expect(await problem('fail_on: warning\n')).toMatch(/fail_on: unknown key \(did you mean "fail-on"\?\)/);
    expect(await problem('rules:\n  retry-strom: warning\n')).toMatch(/rules\.retry-strom: unknown rule id "retry-strom" \(did you mean "retry-storm"\?\)/);
    expect(await problem('limits:\n  max-line-byte: 10\n')).toMatch(/limits\.max-line-byte: unknown key \(did you mean "max-line-bytes"\?\)/);
    expect(await problem('rules:\n  retry-storm:\n    treshold: 4\n')).toMatch(/treshold: unknown key \(did you mean "threshold"\?\)/);
    // Nothing near: no guess.
    expect(await problem('colour: blue\n')).toMatch(/colour: unknown key$/);
  });
});
