import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** The Node.js versions the README says development needs: `Development needs Node.js 20.19+, 22.13+ or 24+`. */
function developmentNodeVersions(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const sentence = /Development needs Node\.js ([^.\n]*(?:\.\d+[^.\n]*)*)/.exec(readme)?.[1] ?? '';
  return [...sentence.matchAll(/(\d+)(?:\.(\d+))?\+/g)].map((m) => `${m[1]}.${m[2] ?? 0}.0`);
}

/** Every installed package's engines.node range (npm ci warns EBADENGINE when one is not met). */
function engineRanges(): Array<[string, string]> {
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: unknown }> };
  const out: Array<[string, string]> = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const engines = entry.engines;
    if (Array.isArray(engines)) {
      for (const e of engines) if (typeof e === 'string' && e.startsWith('node')) out.push([path, e.slice(4).trim()]);
    } else if (engines && typeof engines === 'object' && typeof (engines as { node?: unknown }).node === 'string') {
      out.push([path, (engines as { node: string }).node]);
    }
  }
  return out;
}

describe('the Node.js versions development needs', () => {
  it('are stated in the README', () => {
    expect(developmentNodeVersions()).toEqual(['20.19.0', '22.13.0', '24.0.0']);
  });

  it('meet every engines.node range in package-lock.json, so npm ci prints no EBADENGINE warning on them', () => {
    const ranges = engineRanges();
    expect(ranges.length).toBeGreaterThan(100);
    const unmet = developmentNodeVersions().flatMap((version) =>
      ranges.filter(([, range]) => !semver.satisfies(version, range, { includePrerelease: true })).map(([path, range]) => `${version}: ${path} wants ${range}`),
    );
    expect(unmet).toEqual([]);
    // The check can fail: a Node 22 requirement (what azurite 3.37 and content-type 3 ask for) is not met by 20.19.
    expect(semver.satisfies('20.19.0', '>=22')).toBe(false);
  });

  it('the running Node.js is one of them (what the README promises is what CI runs)', () => {
    const supported = developmentNodeVersions().some((min) => semver.major(min) === semver.major(process.version) && semver.gte(process.version, min));
    expect([process.version, supported]).toEqual([process.version, true]);
  });
});
