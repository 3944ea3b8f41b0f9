import { statusOf } from './octokit.js';

/** Waits longer than this are not waited for: the caller stops with one warning instead. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;
/** A secondary rate limit without Retry-After: GitHub asks for at least a minute. */
const SECONDARY_DEFAULT_WAIT_MS = 60_000;
const MAX_RETRIES = 2;

/** Thrown when GitHub's rate limit would need a longer wait, or more retries, than we give it. */
export class RateLimitedError extends Error {
  constructor(readonly waitMs: number | undefined) {
    super(waitMs === undefined ? 'GitHub kept answering with its rate limit' : `GitHub asked to wait ${Math.ceil(waitMs / 1000)} s (rate limit)`);
    this.name = 'RateLimitedError';
  }
}

/** The time all requests of one task may spend waiting for rate limits, shared and used up as they wait. */
export interface WaitBudget {
  remainingMs: number;
}

/** What one check run (up to 111 requests) may wait for rate limits in all. */
export const TOTAL_RATE_LIMIT_WAIT_MS = 180_000;

export interface RateLimitOptions {
  readonly maxWaitMs?: number;
  /** Shared by the requests of one task; without it, each request may wait up to maxWaitMs per retry. */
  readonly budget?: WaitBudget;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/**
 * Runs one request, honouring GitHub's rate limits as the throttling plugin
 * does: a 429, or a 403 that carries `retry-after`, `x-ratelimit-remaining: 0`
 * or the words "secondary rate limit", is retried after the wait GitHub asks
 * for (Retry-After seconds, else until x-ratelimit-reset, else a minute),
 * at most twice, never longer than `maxWaitMs`, and never past what is left
 * of the shared `budget`. Any other error is rethrown as it is.
 */
export async function withRateLimit<T>(request: () => Promise<T>, options: RateLimitOptions = {}): Promise<T> {
  const maxWait = options.maxWaitMs ?? MAX_RATE_LIMIT_WAIT_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const now = options.now ?? Date.now;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const wait = rateLimitWait(error, now());
      if (wait === undefined) throw error;
      if (wait > maxWait || (options.budget !== undefined && wait > options.budget.remainingMs)) throw new RateLimitedError(wait);
      if (attempt >= MAX_RETRIES) throw new RateLimitedError(undefined);
      if (options.budget !== undefined) options.budget.remainingMs -= wait;
      await sleep(wait);
    }
  }
}

/** The wait a rate-limit answer asks for (ms), or undefined when the error is not a rate limit. */
export function rateLimitWait(error: unknown, nowMs: number): number | undefined {
  const status = statusOf(error);
  if (status !== 403 && status !== 429) return undefined;
  const headers = headersOf(error);
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
  const remaining = headers.get('x-ratelimit-remaining');
  const reset = headers.get('x-ratelimit-reset');
  if (remaining === '0' && reset !== undefined && /^\d+$/.test(reset.trim())) return Math.max(0, Number(reset.trim()) * 1000 - nowMs) + 1000;
  const message = error instanceof Error ? error.message : '';
  if (status === 429 || /secondary rate limit/i.test(message)) return SECONDARY_DEFAULT_WAIT_MS;
  return undefined;
}

/** An Octokit RequestError's response headers, by lower-case name. */
function headersOf(error: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const response = error !== null && typeof error === 'object' ? (error as { response?: unknown }).response : undefined;
  const headers = response !== null && typeof response === 'object' ? (response as { headers?: unknown }).headers : undefined;
  if (headers === null || typeof headers !== 'object') return out;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number') out.set(name.toLowerCase(), String(value));
  }
  return out;
}
