import { RequestError } from '@octokit/request-error';
import { describe, expect, it } from 'vitest';
import { MAX_RATE_LIMIT_WAIT_MS, rateLimitWait, RateLimitedError, withRateLimit } from '../../src/github/rate-limit.js';

/** The error Octokit throws for an HTTP answer (the same class, from the same package). */
function answer(status: number, headers: Record<string, string>, message = 'Forbidden'): RequestError {
  return new RequestError(message, status, {
    request: { method: 'PATCH', url: 'https://api.github.com/repos/o/r/check-runs/1', headers: {} },
    response: { status, url: 'https://api.github.com/repos/o/r/check-runs/1', headers, data: { message } },
  });
}

const NOW = 1_800_000_000_000;

describe('GitHub rate limits', () => {
  it('reads the wait from Retry-After, x-ratelimit-reset, or a secondary limit message; anything else is not a rate limit', () => {
    expect(rateLimitWait(answer(403, { 'retry-after': '7' }), NOW)).toBe(7000);
    expect(rateLimitWait(answer(429, { 'retry-after': '2' }), NOW)).toBe(2000);
    expect(rateLimitWait(answer(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 30) }), NOW)).toBe(31_000);
    expect(rateLimitWait(answer(403, {}, 'You have exceeded a secondary rate limit'), NOW)).toBe(60_000);
    expect(rateLimitWait(answer(429, {}), NOW)).toBe(60_000);
    expect(rateLimitWait(answer(403, { 'x-ratelimit-remaining': '4999' }, 'Resource not accessible by integration'), NOW)).toBeUndefined();
    expect(rateLimitWait(answer(422, { 'retry-after': '1' }), NOW)).toBeUndefined();
    expect(rateLimitWait(new Error('socket hang up'), NOW)).toBeUndefined();
  });

  it('waits as asked and retries, at most twice, never longer than the bound', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls < 3) throw answer(403, { 'retry-after': '3' });
      return 'done';
    };
    await expect(withRateLimit(flaky, { sleep })).resolves.toBe('done');
    expect(waits).toEqual([3000, 3000]);

    calls = 0;
    const always = async () => {
      calls += 1;
      throw answer(429, { 'retry-after': '1' });
    };
    await expect(withRateLimit(always, { sleep })).rejects.toThrow(new RateLimitedError(undefined));
    expect(calls).toBe(3);

    const tooLong = async () => {
      throw answer(403, { 'retry-after': String(MAX_RATE_LIMIT_WAIT_MS / 1000 + 1) });
    };
    await expect(withRateLimit(tooLong, { sleep })).rejects.toThrow('GitHub asked to wait 61 s (rate limit)');

    const forbidden = answer(403, {}, 'Resource not accessible by integration');
    await expect(withRateLimit(async () => Promise.reject(forbidden), { sleep })).rejects.toBe(forbidden);
  });
});

describe('the shared wait budget', () => {
  it('requests of one task stop waiting once their budget is used up', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const budget = { remainingMs: 50_000 };
    let calls = 0;
    const once = async () => {
      calls += 1;
      if (calls % 2 === 1) throw answer(403, { 'retry-after': '20' });
      return calls;
    };
    await expect(withRateLimit(once, { sleep, budget })).resolves.toBe(2);
    await expect(withRateLimit(once, { sleep, budget })).resolves.toBe(4);
    expect(budget.remainingMs).toBe(10_000);
    await expect(withRateLimit(once, { sleep, budget })).rejects.toThrow('GitHub asked to wait 20 s (rate limit)');
    expect(waits).toEqual([20_000, 20_000]);
  });
});
