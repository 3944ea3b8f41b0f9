import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Azurite } from './artifacts/azurite.js';
import { FakeChecks } from './fake-checks.js';
import { startLoopback } from './support/loopback.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}
export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}
export interface FakeArtifact {
  id: number;
  name: string;
  runId: number;
  blob: string;
  digest: string;
  size: number;
  expired: boolean;
}
export interface FakeRun {
  id: number;
  head_branch: string;
  head_sha: string;
  head_repository: { full_name: string };
}

const TWIRP = '/twirp/github.actions.results.api.v1.ArtifactService/';

/**
 * One loopback server answering the GitHub REST endpoints the Action calls
 * and the artifact service's Twirp JSON endpoints (CreateArtifact,
 * FinalizeArtifact). Blobs live in Azurite; this server only hands out
 * signed URLs. Every request is recorded.
 */
export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly comments = new Map<number, FakeComment[]>();
  readonly artifacts: FakeArtifact[] = [];
  readonly runs: FakeRun[] = [];
  readonly pulls: Array<{ number: number; head: { sha: string; ref: string; label: string }; base?: { sha: string; ref: string } }> = [];
  /** The GitHub run id new uploads belong to (the job's GITHUB_RUN_ID). */
  currentRunId = 1;
  forbidCommentWrites = false;
  /** Answer CreateArtifact as the service does when the storage quota is used up. */
  quotaExhausted = false;
  private nextId = 1000;
  private stopServer: () => Promise<void> = async () => {};
  url = '';
  /** The Checks API (check runs and their annotations). */
  readonly checks: FakeChecks;

  constructor(
    private readonly azurite: Azurite,
    readonly owner = 'octo-org',
    readonly repo = 'agent-app',
  ) {
    this.checks = new FakeChecks(`/repos/${owner}/${repo}`, () => this.url);
  }

  async start(): Promise<void> {
    const loopback = await startLoopback((req, res) => void this.handle(req, res));
    this.url = loopback.url;
    this.stopServer = loopback.stop;
  }

  async stop(): Promise<void> {
    await this.stopServer();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, body });
    const send = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(data === undefined ? '' : JSON.stringify(data));
    };
    try {
      if (url.pathname.startsWith(TWIRP)) return this.twirp(url.pathname.slice(TWIRP.length), body as Record<string, unknown>, send);
      this.rest(req.method ?? 'GET', url, body as Record<string, unknown> | undefined, send);
    } catch (error) {
      send(500, { message: String(error) });
    }
  }

  private twirp(method: string, body: Record<string, unknown>, send: (s: number, d: unknown) => void): void {
    const name = String(body['name']);
    const blob = `${String(body['workflowRunBackendId'] ?? body['workflow_run_backend_id'])}/${this.currentRunId}/${name}.zip`;
    if (method === 'CreateArtifact') {
      if (this.quotaExhausted) return send(403, { code: 'permission_denied', msg: 'insufficient usage to create artifact' });
      if (this.artifacts.some((a) => a.name === name && a.runId === this.currentRunId)) return send(409, { code: 'already_exists', msg: 'artifact exists' });
      this.artifacts.push({ id: 0, name, runId: this.currentRunId, blob, digest: '', size: 0, expired: false });
      return send(200, { ok: true, signedUploadUrl: this.azurite.signedUrl(blob, 'cw') });
    }
    if (method === 'FinalizeArtifact') {
      const artifact = this.artifacts.find((a) => a.name === name && a.runId === this.currentRunId && a.id === 0);
      if (!artifact) return send(404, { code: 'not_found', msg: 'no such artifact' });
      artifact.id = ++this.nextId;
      artifact.size = Number(body['size'] ?? 0);
      artifact.digest = String(body['hash'] ?? '');
      return send(200, { ok: true, artifactId: String(artifact.id) });
    }
    send(404, { code: 'bad_route', msg: method });
  }

  private rest(method: string, url: URL, body: Record<string, unknown> | undefined, send: (s: number, d: unknown, h?: Record<string, string>) => void): void {
    const p = url.pathname;
    const repoPrefix = `/repos/${this.owner}/${this.repo}`;
    let m: RegExpExecArray | null;
    if (p === '/user') return send(403, { message: 'Resource not accessible by integration' });
    if (this.checks.handle(method, url, body, send)) return;
    if ((m = new RegExp(`^${repoPrefix}/issues/(\\d+)/comments$`).exec(p))) {
      const issue = Number(m[1]);
      const list = this.comments.get(issue) ?? [];
      if (method === 'GET') {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const slice = list.slice((page - 1) * perPage, page * perPage);
        const headers: Record<string, string> = {};
        if (page * perPage < list.length) headers['link'] = `<${this.url}${p}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
        return send(200, slice, headers);
      }
      if (method === 'POST') {
        if (this.forbidCommentWrites) return send(403, { message: 'Resource not accessible by integration' });
        const comment = this.comment(issue, String(body?.['body']), 'github-actions[bot]');
        list.push(comment);
        this.comments.set(issue, list);
        return send(201, comment);
      }
    }
    if ((m = new RegExp(`^${repoPrefix}/issues/comments/(\\d+)$`).exec(p)) && method === 'PATCH') {
      if (this.forbidCommentWrites) return send(403, { message: 'Resource not accessible by integration' });
      const comment = [...this.comments.values()].flat().find((c) => c.id === Number(m![1]));
      if (!comment) return send(404, { message: 'Not Found' });
      comment.body = String(body?.['body']);
      return send(200, comment);
    }
    if ((m = new RegExp(`^${repoPrefix}/actions/workflows/([^/]+)/runs$`).exec(p))) {
      const branch = url.searchParams.get('branch');
      const runs = this.runs.filter((r) => branch === null || r.head_branch === branch).sort((a, b) => b.id - a.id);
      return send(200, { total_count: runs.length, workflow_runs: runs });
    }
    if ((m = new RegExp(`^${repoPrefix}/actions/runs/(\\d+)/artifacts$`).exec(p))) {
      const name = url.searchParams.get('name');
      const page = Number(url.searchParams.get('page') ?? 1);
      const list = page > 1 ? [] : this.artifacts.filter((a) => a.runId === Number(m![1]) && a.id !== 0 && (name === null || a.name === name));
      return send(200, { total_count: list.length, artifacts: list.map((a) => this.restArtifact(a)) });
    }
    if ((m = new RegExp(`^${repoPrefix}/actions/artifacts/(\\d+)/zip$`).exec(p))) {
      const artifact = this.artifacts.find((a) => a.id === Number(m![1]));
      if (!artifact) return send(404, { message: 'Not Found' });
      return send(302, undefined, { location: this.azurite.signedUrl(artifact.blob, 'r') });
    }
    if (p === `${repoPrefix}/pulls`) {
      const head = url.searchParams.get('head');
      return send(200, this.pulls.filter((pr) => head === null || pr.head.label === head));
    }
    send(404, { message: `Not Found: ${method} ${p}` });
  }

  comment(issue: number, body: string, login: string): FakeComment {
    const id = ++this.nextId;
    return { id, body, user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue}#issuecomment-${id}` };
  }

  private restArtifact(a: FakeArtifact) {
    return {
      id: a.id,
      node_id: `MDg6QXJ0aWZhY3Q${a.id}`,
      name: a.name,
      size_in_bytes: a.size,
      url: `${this.url}/repos/${this.owner}/${this.repo}/actions/artifacts/${a.id}`,
      archive_download_url: `${this.url}/repos/${this.owner}/${this.repo}/actions/artifacts/${a.id}/zip`,
      expired: a.expired,
      digest: a.digest,
      created_at: '2026-11-29T12:00:00Z',
      updated_at: '2026-11-29T12:00:00Z',
      expires_at: '2027-02-27T12:00:00Z',
      workflow_run: { id: a.runId, repository_id: 1, head_repository_id: 1, head_branch: 'main', head_sha: 'a'.repeat(40) },
    };
  }
}
