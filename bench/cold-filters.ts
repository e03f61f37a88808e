// The cold cost of the filters of /v1/jobs that the varied mix does not draw (the employer's name, the
// company's own figures, the source, the creation window), each alone with values taken from the data,
// one request at a time: empties shared_totals (start the service fresh for empty caches of its own),
// then sends N requests of each filter and prints the median, the maximum and the statuses.
//   DATABASE_URL=<the bench database> npx tsx bench/cold-filters.ts http://127.0.0.1:PORT KEY [N=8]
import pg from 'pg';

const [base, key, count] = process.argv.slice(2);
if (!base || !key) {
  process.stderr.write('usage: DATABASE_URL=… npx tsx bench/cold-filters.ts BASE_URL KEY [N]\n');
  process.exit(2);
}
const n = Number(count ?? 8);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const q = async (text: string) => (await pool.query<{ v: string }>(text)).rows.map((r) => String(r.v));

// Employer names by how many live postings name them: the most common, and from the middle of the list.
const orgs = await q(
  `SELECT v FROM (SELECT org_key AS v, count(*) AS k FROM jobs WHERE state = 0 GROUP BY org_key) o
    ORDER BY k DESC, v LIMIT ${n * 40}`,
);
const spread = <T>(xs: T[]) => Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);
const nameWords = [...new Set(orgs.flatMap((o) => o.split(/[^a-z]+/).filter((w) => w.length >= 4)))];
const percentiles = async (column: string) =>
  q(
    `SELECT unnest(percentile_disc(ARRAY(SELECT generate_series(1, ${n}) / ${n + 1}.0))
       WITHIN GROUP (ORDER BY ${column})) AS v FROM companies WHERE ${column} IS NOT NULL`,
  );
const employees = await percentiles('employee_count');
const funding = await percentiles('total_funding');
const hq = await q(
  `SELECT c.hq_country AS v FROM jobs j JOIN companies c ON c.slug = j.company_slug
    WHERE j.state = 0 AND c.hq_country IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT ${n}`,
);
const domains = await q(
  `SELECT domain AS v FROM companies WHERE domain IS NOT NULL AND jobs_count > 0 ORDER BY followers DESC LIMIT ${n * 20}`,
);
// Every other source named by its legacy slug, which the filters accept too.
const sources = await q(
  `SELECT CASE WHEN legacy_slug IS NOT NULL AND row_number() OVER (ORDER BY slug) % 2 = 0
               THEN legacy_slug ELSE slug END AS v FROM sources ORDER BY slug LIMIT ${n}`,
);
const days = Array.from({ length: n }, (_, i) =>
  new Date(Date.now() - (i + 1) * 7 * 86_400_000).toISOString(),
);
await pool.query('TRUNCATE shared_totals');
await pool.end();

const enc = encodeURIComponent;
const filters: [string, string[]][] = [
  ['organization', [...spread(nameWords).slice(0, n - 2), 'a', 'xq'].map((w) => `organization=${enc(w)}`)],
  ['excl_org', spread(orgs).map((o) => `exclude_organization=${enc(o)}`)],
  ['employees_gte', employees.map((v) => `employee_count_gte=${v}`)],
  ['employees_lt', employees.map((v) => `employee_count_lt=${Math.max(1, Number(v))}`)],
  ['funding_gte', funding.map((v) => `funding_gte=${v}`)],
  ['funding_lt', funding.map((v) => `funding_lt=${Math.max(1, Number(v))}`)],
  ['company_country', hq.map((c) => `company_country=${c}`)],
  ['domain', spread(domains).map((d) => `domain=${enc(d)}`)],
  ['source', sources.map((s) => `source=${s}`)],
  ['exclude_source', sources.map((s) => `exclude_source=${s}`)],
  ['created_gte', days.map((d) => `created_gte=${enc(d)}`)],
];
for (const [name, queries] of filters) {
  const ms: number[] = [];
  const statuses = new Map<number, number>();
  for (const query of queries) {
    const t = performance.now();
    const res = await fetch(`${base}/v1/jobs?${query}`, { headers: { authorization: `Bearer ${key}` } });
    await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(0).padStart(6);
  const st = [...statuses].map(([s, k]) => `${s}×${k}`).join(' ');
  process.stdout.write(
    `${name.padEnd(16)} median ${f(ms[ms.length >> 1])} max ${f(ms[ms.length - 1])} ms  ${st.padEnd(14)} e.g. ${queries[0]}\n`,
  );
}
