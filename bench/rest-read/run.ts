// Benchmark: GET /rest/v1/<table>?id=eq.<id> through the full server vs a bare node:http handler running
// the same SQL (same transaction, same set_config, same statement) on the same database in the same
// process. Prints req/s of both and, on the last line, the ratio full/bare (goal >= 0.8x).
// PGlite always; PostgreSQL too when BENCH_DATABASE_URL is set. BENCH_DURATION sets seconds per run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { SET_CALLER_SQL, SET_CALLER_STATEMENT } from '../../server/rest/request-context.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

const ROWS = 1000;
const CONNECTIONS = 50;
const pgUrl = process.env['BENCH_DATABASE_URL'];
const duration = Number(process.env['BENCH_DURATION'] ?? (pgUrl ? 6 : 10));

const SETUP_SQL = `
create table public.bench_items (id int primary key, name text not null, score int not null, created_at timestamptz not null default now());
alter table public.bench_items enable row level security;
create policy bench_items_read on public.bench_items for select using (true);
insert into public.bench_items (id, name, score) select g, 'item ' || g, g % 97 from generate_series(1, ${ROWS}) g;
`;

// What the REST part runs for this request: the caller's role and claims (the server's own statement,
// prepared under the same name on PostgreSQL), then one statement answering JSON.
const READ_SQL = `select null::int as total, count(*)::int as rows, coalesce(json_agg(pgrst_s), '[]')::text as body
    from (select pgrst_t.* from "public"."bench_items" pgrst_t where (pgrst_t."id" = $1)) pgrst_s`;

function randomId(): number {
  return 1 + Math.floor(Math.random() * ROWS);
}

/** The baseline: no framework, no parsing beyond the id, the same SQL on the same database. */
async function startBareServer(t: TestServer): Promise<{ url: string; close: () => Promise<void> }> {
  const claims = JSON.stringify({ role: 'anon', iss: t.server.ctx.keys.issuer });
  const timeout = `${t.server.ctx.config.REST_STATEMENT_TIMEOUT_MS}ms`;
  const server = http.createServer((req, res) => {
    const m = /[?&]id=eq\.([0-9]+)/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(400).end();
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    t.db
      .transaction(async (tx) => {
        await tx.query(
          SET_CALLER_SQL,
          ['anon', claims, req.method, path, JSON.stringify(req.headers), timeout],
          {
            name: SET_CALLER_STATEMENT,
          },
        );
        const r = await tx.query<{ rows: number; body: string }>(READ_SQL, [m[1]]);
        return r.rows[0];
      })
      .then((row) => {
        const rows = row?.rows ?? 0;
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-range': rows > 0 ? `0-${rows - 1}/*` : '*/*',
        });
        res.end(row?.body ?? '[]');
      })
      .catch((e: Error) => {
        res.writeHead(500).end(e.message);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function measure(url: string, apikey: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { apikey },
    requests: [{ setupRequest: (req) => ({ ...req, path: `/rest/v1/bench_items?id=eq.${randomId()}` }) }],
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  return result.requests.average;
}

async function benchKind(kind: 'pglite' | 'postgres'): Promise<number> {
  if (kind === 'postgres') process.env['TEST_DATABASE_URL'] = pgUrl;
  const t = await startTestServer(kind);
  const bare = await startBareServer(t);
  try {
    await t.db.exec(SETUP_SQL);
    // Both answer the same bytes for the same id: the comparison is like for like.
    const probe = `/rest/v1/bench_items?id=eq.7`;
    const [a, b] = await Promise.all([
      fetch(`${t.url}${probe}`, { headers: { apikey: t.anonKey } }).then((r) => r.text()),
      fetch(`${bare.url}${probe}`).then((r) => r.text()),
    ]);
    if (a !== b) throw new Error(`responses differ:\n full: ${a}\n bare: ${b}`);
    await measure(bare.url, t.anonKey, 1); // warm-up
    await measure(t.url, t.anonKey, 1);
    // Alternating short rounds, so a change in machine load hits both sides alike.
    const rounds = 4;
    const slice = Math.max(1, Math.round(duration / rounds));
    let bareRps = 0;
    let fullRps = 0;
    for (let round = 0; round < rounds; round++) {
      const fullFirst = round % 2 === 1;
      if (fullFirst) fullRps += (await measure(t.url, t.anonKey, slice)) / rounds;
      bareRps += (await measure(bare.url, t.anonKey, slice)) / rounds;
      if (!fullFirst) fullRps += (await measure(t.url, t.anonKey, slice)) / rounds;
    }
    console.log(`${kind}: bare node:http + same SQL ${bareRps.toFixed(0)} req/s`);
    console.log(`${kind}: full stack GET /rest/v1/bench_items?id=eq.<id> ${fullRps.toFixed(0)} req/s`);
    return fullRps / bareRps;
  } finally {
    await bare.close();
    await t.close();
  }
}

const ratios: string[] = [];
ratios.push(`pglite ${(await benchKind('pglite')).toFixed(2)}x`);
if (pgUrl) ratios.push(`postgres ${(await benchKind('postgres')).toFixed(2)}x`);
console.log(`rest-read ratio full/bare (goal >= 0.8x): ${ratios.join(', ')}`);
