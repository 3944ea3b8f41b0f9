/**
 * Finds the inside of a service in text: its file-system paths, SQL statements,
 * library and runtime versions, internal hostnames, database constraint and enum
 * details, and the DETAIL/CONTEXT lines of a database error. Each pattern needs a
 * shape prose does not have (a rooted path with a service folder, upper-case SQL
 * keywords in statement order, a product name next to a version number).
 */

export type DetailKind = 'service-path' | 'sql' | 'version' | 'internal-host' | 'db-constraint' | 'db-detail-line';

/** The order kinds are reported in. */
export const KIND_ORDER: readonly DetailKind[] = ['service-path', 'sql', 'version', 'internal-host', 'db-constraint', 'db-detail-line'];

export interface InternalDetail {
  readonly kind: DetailKind;
  /** What matched, for paths, versions and hosts; null where the match may carry row data. */
  readonly sample: string | null;
}

interface Pattern {
  readonly kind: DetailKind;
  readonly re: RegExp;
  /** Quote the match in findings (false where it may carry data values). */
  readonly quote: boolean;
}

const UNIX_SERVICE_ROOT = String.raw`(?:srv|opt|app|var/www|var/lib|usr/src|usr/local/lib|workspace|deploy|home/[\w.-]+/(?:app|apps|srv|src|services?|deploy|current|releases))`;
const VERSIONED = String.raw`(?:python|node(?:\.js)?|psycopg2?|asyncpg|sqlalchemy|django|flask|fastapi|werkzeug|gunicorn|uvicorn|requests|urllib3|httpx|aiohttp|express|openssl|postgresql|postgres|mysql|mariadb|redis|mongodb|nginx|apache|openjdk|java|spring(?:-boot)?|hibernate|ruby|rails|php|laravel|dotnet|\.net|npgsql)`;

const PATTERNS: readonly Pattern[] = [
  // /srv/app/x.py, /opt/venv/lib/python3.12/site-packages/…, /home/deploy/app/…, any …/site-packages/ or …/node_modules/.
  { kind: 'service-path', quote: true, re: new RegExp(String.raw`(?<![\w/.])/${UNIX_SERVICE_ROOT}/[^\s"'()<>,;]+`, 'g') },
  { kind: 'service-path', quote: true, re: /(?<![\w/.])(?:\/[\w.@+-]+)+\/(?:site-packages|dist-packages|node_modules|gems)\/[^\s"'()<>,;]+/g },
  { kind: 'service-path', quote: true, re: /(?<![\w])[A-Za-z]:\\(?:[\w .$@+-]+\\)+[\w .$@+-]*[\w$@+-]/g },
  { kind: 'version', quote: true, re: new RegExp(String.raw`\b${VERSIONED}(?:[ /@-]?v?|==)\d+\.\d+(?:\.\d+)*(?:[a-z]+\d*)?\b`, 'gi') },
  { kind: 'version', quote: true, re: /\bnode(?:\.js)? v\d+\b|\bgo1\.\d+(?:\.\d+)?\b/gi },
  { kind: 'internal-host', quote: true, re: /\b(?:10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}):\d{2,5}\b/g },
  {
    kind: 'db-constraint',
    quote: false,
    re: /violates (?:unique|foreign key|check|not-null|exclusion) constraint|duplicate key value|invalid input value for enum|null value in column "|Duplicate entry '.*' for key|(?:UNIQUE|FOREIGN KEY|CHECK|NOT NULL) constraint failed|ORA-\d{5}/g,
  },
  { kind: 'db-detail-line', quote: false, re: /^[ \t]*(?:DETAIL|CONTEXT|HINT|STATEMENT|QUERY|LOCATION|SQL state):[ \t]+\S/gm },
];

/** SQL statement shapes, tried at each upper-case keyword (sticky, on a bounded window). */
const SQL_KEYWORD = /\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b/g;
const SQL_STATEMENT =
  /(?:SELECT\s+(?:DISTINCT\s+)?[\w*."$,\s()]+?\s+FROM\s+["\w.]+|INSERT\s+INTO\s+["\w.]+|UPDATE\s+["\w.]+\s+SET\s+["\w]+\s*=|DELETE\s+FROM\s+["\w.]+|(?:CREATE|ALTER|DROP)\s+(?:TABLE|INDEX|TYPE)\s+["\w.]+)/y;
const SQL_WINDOW = 400;
const SQL_MAX_TRIES = 200;

function hasSql(text: string): boolean {
  SQL_KEYWORD.lastIndex = 0;
  let tries = 0;
  for (let m = SQL_KEYWORD.exec(text); m && tries < SQL_MAX_TRIES; m = SQL_KEYWORD.exec(text), tries++) {
    SQL_STATEMENT.lastIndex = 0;
    if (SQL_STATEMENT.test(text.slice(m.index, m.index + SQL_WINDOW))) return true;
  }
  return false;
}

/** Hostname-like tokens (linear scan); each is then checked for an internal suffix. */
const HOST_TOKEN = /[A-Za-z0-9][A-Za-z0-9.-]*(?::\d{2,5})?/g;
const INTERNAL_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|localdomain|intranet|corp|lan)(?::\d{2,5})?$/i;

function internalHost(text: string): string | null {
  HOST_TOKEN.lastIndex = 0;
  for (let m = HOST_TOKEN.exec(text); m; m = HOST_TOKEN.exec(text)) {
    const token = m[0].replace(/[.-]+$/, '');
    if (token.length <= 260 && token.includes('.') && INTERNAL_HOST.test(token)) return token;
  }
  return null;
}

const MAX_SAMPLE = 60;
const MAX_TEXT = 2 * 1024 * 1024;

/** Every kind of internal detail in `text`, once per kind, with the first match where it is safe to quote. */
export function findInternalDetails(text: string): InternalDetail[] {
  if (text.length > MAX_TEXT) return [];
  const found = new Map<DetailKind, InternalDetail>();
  for (const { kind, re, quote } of PATTERNS) {
    if (found.has(kind)) continue;
    re.lastIndex = 0;
    const match = re.exec(text);
    if (!match) continue;
    const sample = quote ? match[0].replace(/[.:]+$/, '').slice(0, MAX_SAMPLE) : null;
    found.set(kind, { kind, sample });
  }
  if (hasSql(text)) found.set('sql', { kind: 'sql', sample: null });
  if (!found.has('internal-host')) {
    const host = internalHost(text);
    if (host !== null) found.set('internal-host', { kind: 'internal-host', sample: host });
  }
  return KIND_ORDER.flatMap((kind) => found.get(kind) ?? []);
}
