import { describe, expect, it } from 'vitest';
import { findInternalDetails } from '../../../src/audit/text/internal-detail.js';

const SEED_TRACE = [
  'Traceback (most recent call last):',
  '  File "/srv/agent-gateway/dispatch.py", line 218, in call_tool',
  '    return await handler(**arguments)',
  '  File "/opt/venv/lib/python3.12/site-packages/asyncpg/connection.py", line 350, in execute',
  '    return await self._protocol.query(query, timeout)',
  'asyncpg.exceptions.InvalidTextRepresentationError: invalid input value for enum ticket_status: "OPEN"',
  "DETAIL:  unnamed portal parameter $1 = 'OPEN'",
  'CONTEXT:  UPDATE tickets SET status = $1::ticket_status WHERE id = $2',
].join('\n');

describe('findInternalDetails', () => {
  it('finds every kind in the seed article trace, quoting only what carries no row data', () => {
    expect(findInternalDetails(SEED_TRACE)).toEqual([
      { kind: 'service-path', sample: '/srv/agent-gateway/dispatch.py' },
      { kind: 'sql', sample: null },
      { kind: 'version', sample: 'python3.12' },
      { kind: 'db-constraint', sample: null },
      { kind: 'db-detail-line', sample: null },
    ]);
  });

  it.each([
    ['/opt/venv/lib/python3.11/site-packages/psycopg2/__init__.py', 'service-path', '/opt/venv/lib/python3.11/site-packages/psycopg2/__init__.py'],
    ['open /home/deploy/app/config/settings.yaml failed', 'service-path', '/home/deploy/app/config/settings.yaml'],
    ['at C:\\inetpub\\tickets\\bin\\Tickets.dll', 'service-path', 'C:\\inetpub\\tickets\\bin\\Tickets.dll'],
    ['cannot find module in /usr/lib/node_modules/express/lib/router.js', 'service-path', '/usr/lib/node_modules/express/lib/router.js'],
    ['query was: SELECT id, email FROM users WHERE tenant = 4', 'sql', null],
    ['INSERT INTO audit_log (actor) VALUES ($1)', 'sql', null],
    ['psycopg2 2.9.9 on Python 3.11.4', 'version', 'psycopg2 2.9.9'],
    ['Server: nginx/1.25.3', 'version', 'nginx/1.25.3'],
    ['running on node v20', 'version', 'node v20'],
    ['built with go1.22.1', 'version', 'go1.22.1'],
    ['connect ECONNREFUSED payments-db.internal:5432', 'internal-host', 'payments-db.internal:5432'],
    ['redis.default.svc.cluster.local:6379 timed out', 'internal-host', 'redis.default.svc.cluster.local:6379'],
    ['upstream 10.0.3.17:8080 reset the connection', 'internal-host', '10.0.3.17:8080'],
    ['dial tcp 192.168.1.20:5432: connect: refused', 'internal-host', '192.168.1.20:5432'],
    ['duplicate key value violates unique constraint "users_email_key"', 'db-constraint', null],
    ['UNIQUE constraint failed: users.email', 'db-constraint', null],
    ["Duplicate entry 'ana@example.com' for key 'users.email'", 'db-constraint', null],
    ['ERROR: bad\nHINT:  No function matches the given name', 'db-detail-line', null],
  ])('%j: %s', (text, kind, sample) => {
    expect(findInternalDetails(text)).toContainEqual({ kind, sample });
  });

  it.each([
    'Meet me at the library at 10.30 tomorrow.',
    'Version 2 of the plan is in the shared folder.',
    'Select an option from the menu, then update the title and set a date.',
    'We go 1.5 km further, then turn left.',
    'The office network is 10.0.0.0/8 and the printer is at 10.0.0.12.',
    'Update: the local team will set up the demo.',
    'See /docs/guide for details, or the README at the root.',
    'Detail: the ticket was closed by the customer.',
    'The ticket status must be one of: open, pending, closed.',
    'She installed Python and Node last week.',
  ])('%j has none', (text) => {
    expect(findInternalDetails(text)).toEqual([]);
  });
});

describe('findInternalDetails on hostile input', () => {
  // A dotted run like this took minutes with a backtracking hostname pattern.
  it.each([
    ['a dotted run', 'a.'.repeat(500_000)],
    ['many SELECTs', 'SELECT '.repeat(250_000)],
    ['long path-like words', ('/a'.repeat(995) + ' ').repeat(1000)],
  ])('%s: in well under a second', (_name, text) => {
    const start = performance.now();
    expect(findInternalDetails(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(1500);
  });
});
