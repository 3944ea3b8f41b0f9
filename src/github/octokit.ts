import { getOctokit } from '@actions/github';

export type Octokit = ReturnType<typeof getOctokit>;

/** The REST client; GITHUB_API_URL (set by the runner) decides where it talks to. */
export function restClient(token: string, apiUrl: string): Octokit {
  return getOctokit(token, { baseUrl: apiUrl });
}

/** The HTTP status of an Octokit RequestError, or undefined for anything else. */
export function statusOf(error: unknown): number | undefined {
  const status = error !== null && typeof error === 'object' ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}
