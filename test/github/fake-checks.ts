type Send = (status: number, data: unknown, headers?: Record<string, string>) => void;

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: string;
  title?: string;
  message: string;
  raw_details?: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string;
  details_url: string;
  output: { title: string; summary: string; text?: string };
  annotations: FakeAnnotation[];
  /** The number of annotations each request (create, then each update) carried. */
  batches: number[];
}

const LEVELS = new Set(['notice', 'warning', 'failure']);

/**
 * The Checks API as GitHub answers it: POST /check-runs (create), PATCH
 * /check-runs/{id} (update; annotations are appended), GET
 * /commits/{ref}/check-runs (list, paginated). It enforces the limits GitHub
 * documents: at most 50 annotations per request, each with path, lines, a
 * level and a message; title and summary present; the summary at most
 * 65,535 characters; a 403 for a token that cannot write checks. Mounted by FakeGitHub.
 */
export class FakeChecks {
  readonly runs: FakeCheckRun[] = [];
  /** Answer writes as GitHub does for a read-only token (fork pull request). */
  forbidWrites = false;
  /** Rate-limit answers: the write with this index (counting from 1, every POST and PATCH) gets a 403 with these headers instead. */
  readonly rateLimits = new Map<number, Record<string, string>>();
  /** Writes answered so far (rate-limited ones too). */
  writes = 0;
  private nextId = 5000;

  constructor(private readonly repoPrefix: string, private readonly baseUrl: () => string) {}

  /** Answers the request when it is a Checks API route; false otherwise. */
  handle(method: string, url: URL, body: Record<string, unknown> | undefined, send: Send): boolean {
    const p = url.pathname;
    let m: RegExpExecArray | null;
    if (p === `${this.repoPrefix}/check-runs` && method === 'POST') {
      if (this.refuse(send)) return true;
      const invalid = validate(body, true);
      if (invalid) return send(422, { message: invalid }), true;
      const output = body!['output'] as Record<string, unknown>;
      const annotations = (output['annotations'] as FakeAnnotation[] | undefined) ?? [];
      const run: FakeCheckRun = {
        id: ++this.nextId,
        name: String(body!['name']),
        head_sha: String(body!['head_sha']),
        status: String(body!['status'] ?? 'queued'),
        conclusion: typeof body!['conclusion'] === 'string' ? body!['conclusion'] : null,
        external_id: String(body!['external_id'] ?? ''),
        details_url: String(body!['details_url'] ?? ''),
        output: { title: String(output['title']), summary: String(output['summary']) },
        annotations: [...annotations],
        batches: [annotations.length],
      };
      this.runs.push(run);
      return send(201, this.view(run)), true;
    }
    if ((m = new RegExp(`^${this.repoPrefix}/check-runs/(\\d+)$`).exec(p)) && method === 'PATCH') {
      if (this.refuse(send)) return true;
      const run = this.runs.find((r) => r.id === Number(m![1]));
      if (!run) return send(404, { message: 'Not Found' }), true;
      const invalid = validate(body, false);
      if (invalid) return send(422, { message: invalid }), true;
      for (const key of ['name', 'status', 'conclusion', 'external_id', 'details_url'] as const) {
        if (typeof body![key] === 'string') (run as unknown as Record<string, unknown>)[key] = body![key];
      }
      const output = body!['output'] as Record<string, unknown> | undefined;
      if (output) {
        run.output = { title: String(output['title']), summary: String(output['summary']) };
        const annotations = (output['annotations'] as FakeAnnotation[] | undefined) ?? [];
        run.annotations.push(...annotations);
        run.batches.push(annotations.length);
      } else run.batches.push(0);
      return send(200, this.view(run)), true;
    }
    if ((m = new RegExp(`^${this.repoPrefix}/commits/([^/]+)/check-runs$`).exec(p)) && method === 'GET') {
      const name = url.searchParams.get('check_name');
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = this.runs.filter((r) => r.head_sha === m![1] && (name === null || r.name === name)).sort((a, b) => b.id - a.id);
      const headers: Record<string, string> = {};
      if (page * perPage < all.length) headers['link'] = `<${this.baseUrl()}${p}?check_name=${encodeURIComponent(name ?? '')}&per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return send(200, { total_count: all.length, check_runs: all.slice((page - 1) * perPage, page * perPage).map((r) => this.view(r)) }, headers), true;
    }
    return false;
  }

  private refuse(send: Send): boolean {
    const limited = this.rateLimits.get(++this.writes);
    if (limited) return send(403, { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' }, limited), true;
    if (this.forbidWrites) return send(403, { message: 'Resource not accessible by integration' }), true;
    return false;
  }

  private view(run: FakeCheckRun) {
    return {
      id: run.id,
      name: run.name,
      head_sha: run.head_sha,
      status: run.status,
      conclusion: run.conclusion,
      external_id: run.external_id,
      details_url: run.details_url,
      html_url: `https://github.com/octo-org/agent-app/runs/${run.id}`,
      output: { title: run.output.title, summary: run.output.summary, text: null, annotations_count: run.annotations.length, annotations_url: '' },
    };
  }
}

/** What GitHub answers 422 for; undefined when the request is valid. */
function validate(body: Record<string, unknown> | undefined, create: boolean): string | undefined {
  if (!body) return 'Invalid request: no body';
  if (create && (typeof body['name'] !== 'string' || !/^[0-9a-f]{40}$/.test(String(body['head_sha'])))) return 'Invalid request: name and head_sha are required';
  const output = body['output'];
  if (output === undefined) return create ? 'Invalid request: output is required here' : undefined;
  if (output === null || typeof output !== 'object') return 'Invalid request: output must be an object';
  const o = output as Record<string, unknown>;
  if (typeof o['title'] !== 'string' || typeof o['summary'] !== 'string') return 'Invalid request: "title" and "summary" are required keys in output';
  if (o['summary'].length > 65_535) return 'Invalid request: output.summary is too long (maximum is 65535 characters)';
  if (o['title'].length > 255) return 'Invalid request: output.title is too long';
  const annotations = o['annotations'];
  if (annotations === undefined) return undefined;
  if (!Array.isArray(annotations)) return 'Invalid request: annotations must be an array';
  if (annotations.length > 50) return 'Invalid request: only 50 annotations are allowed per request';
  for (const a of annotations as Array<Record<string, unknown>>) {
    if (typeof a['path'] !== 'string' || a['path'] === '' || !Number.isInteger(a['start_line']) || !Number.isInteger(a['end_line']) || typeof a['message'] !== 'string') {
      return 'Invalid request: an annotation needs path, start_line, end_line and message';
    }
    if (!LEVELS.has(String(a['annotation_level']))) return `Invalid request: annotation_level ${String(a['annotation_level'])} is not one of notice, warning, failure`;
    if ((a['start_line'] as number) < 1 || (a['end_line'] as number) < (a['start_line'] as number)) return 'Invalid request: start_line must be at least 1 and at most end_line';
  }
  return undefined;
}
