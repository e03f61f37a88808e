// Captures the examples of /openapi.json from a running service (on the demo dataset):
//   JPS_URL=http://127.0.0.1:8080 JPS_KEY=<key> npm run openapi:examples
// Writes src/http/openapi-examples.json: one real response per path and status, lists cut to one row.
// The conformance test validates every stored example against the document's schemas.
import { writeFileSync } from 'node:fs';

const base = process.env.JPS_URL ?? 'http://127.0.0.1:8080';
const key = process.env.JPS_KEY;
if (!key) throw new Error('set JPS_KEY to an API key of the service');

const out: Record<string, Record<string, unknown>> = {};
async function capture(path: string, url: string, status: number, auth = true): Promise<unknown> {
  const res = await fetch(`${base}${url}`, { headers: auth ? { authorization: `Bearer ${key}` } : {} });
  if (res.status !== status) throw new Error(`${url}: expected ${status}, got ${res.status}`);
  const body = (await res.json()) as Record<string, unknown>;
  const example = Array.isArray(body.data) ? { ...body, data: body.data.slice(0, 1) } : body;
  out[path] ??= {};
  out[path][status] = example;
  return body;
}

const search = (await capture('/v1/jobs', '/v1/jobs?limit=1&country=US', 200)) as {
  data: { id: string; company: { slug?: string } }[];
};
const job = search.data[0];
await capture('/v1/jobs', '/v1/jobs?limit=many', 400);
await capture('/v1/jobs', '/v1/jobs?limit=1', 401, false);
await capture('/v1/jobs/count', '/v1/jobs/count?country=US', 200);
await capture('/v1/jobs/feed', '/v1/jobs/feed?created_gte=2020-01-01T00:00:00Z&limit=1', 200);
const modified = (await capture(
  '/v1/jobs/modified',
  '/v1/jobs/modified?modified_gte=2020-01-01T00:00:00Z&limit=1',
  200,
)) as { data: { id: string }[] };
await capture('/v1/jobs/expired', '/v1/jobs/expired?expired_gte=2020-01-01T00:00:00Z&limit=1', 200);
await capture('/v1/jobs/{id}', `/v1/jobs/${encodeURIComponent(job.id)}`, 200);
await capture('/v1/jobs/{id}', '/v1/jobs/greenhouse%3A0', 404);
await capture('/v1/companies', '/v1/companies?limit=1', 200);
await capture('/v1/companies/{slug}', `/v1/companies/${job.company.slug}`, 200);
await capture('/v1/companies/{slug}', '/v1/companies/no-such-company', 404);
await capture('/v1/jobs/facets', '/v1/jobs/facets?facets=country,remote,company&facet_limit=2', 200);
await capture('/v1/jobs/facets', '/v1/jobs/facets?facets=planet', 400);
await capture(
  '/v1/jobs/salary',
  '/v1/jobs/salary?salary_currency=USD&salary_buckets=50000,100000,150000',
  200,
);
await capture('/v1/jobs/trends', '/v1/jobs/trends?since=2026-11-20&until=2026-11-27', 200);
await capture('/v1/jobs/trends', '/v1/jobs/trends?since=2025-01-01&until=2026-11-27', 400);
await capture('/v1/meta', '/v1/meta', 200);
// A job with a version: it is in the modified feed.
await capture(
  '/v1/jobs/{id}/history',
  `/v1/jobs/${encodeURIComponent(modified.data[0]?.id ?? job.id)}/history`,
  200,
);
await capture('/v1/jobs/{id}/history', '/v1/jobs/greenhouse%3A0/history', 404);
await capture('/v1/sources', '/v1/sources', 200);
await capture('/v1/health', '/v1/health', 200, false);

const file = new URL('../src/http/openapi-examples.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
process.stderr.write(`wrote ${file.pathname}\n`);
