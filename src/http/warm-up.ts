// The warm-up before a process listens: requests of every kind, drawn from the data, sent through the
// app in process, so that its first clients do not pay for cold code (V8 compiles a function for speed
// only once it has run many times) nor for cold database connections. Measured on a fresh service at a
// million live jobs: the first 5 s of the varied mix at p99 201–306 / max 401–592 ms without it, 116–153 /
// 172–276 ms with it (docs/decisions.md, "A process warms up before it listens").
import type { FastifyInstance } from 'fastify';

export interface WarmUpBudget {
  /** Wall time the warm-up may take. */
  ms: number;
  /** Requests it may send. */
  requests: number;
  /** Requests in flight at once: as many as the pool's connections, so that each is opened and used. */
  concurrency: number;
}

export interface WarmUpReport {
  requests: number;
  ms: number;
  /** Responses per status: a warm-up request the app judged expensive is refused unrun (503). */
  statuses: Record<string, number>;
}

export type Send = (path: string) => Promise<{ status: number; body: string }>;

const FACETS = ['country', 'skills', 'taxonomies', 'seniority', 'company_industry', 'city'];

/** Top values of a few facets and the newest page's titles and ids: what the requests combine. */
export interface Seeds {
  values: Record<string, string[]>;
  titleWords: string[];
  ids: string[];
}

export async function readSeeds(send: Send): Promise<Seeds> {
  const seeds: Seeds = { values: {}, titleWords: [], ids: [] };
  const facets = await send(`/v1/jobs/facets?facets=${FACETS.join(',')}`);
  if (facets.status === 200) {
    const body = JSON.parse(facets.body) as { facets: Record<string, { values: { value: string }[] }> };
    for (const [name, f] of Object.entries(body.facets)) seeds.values[name] = f.values.map((v) => v.value);
  }
  const page = await send('/v1/jobs?limit=200');
  if (page.status === 200) {
    const jobs = (JSON.parse(page.body) as { data: { id: string; title: string }[] }).data;
    seeds.ids = jobs.map((j) => j.id);
    const words = new Set<string>();
    for (const j of jobs)
      for (const w of j.title.toLowerCase().split(/[^a-z]+/)) if (w.length >= 4) words.add(w);
    seeds.titleWords = [...words];
  }
  return seeds;
}

/** How many kinds of request warmUpPath sends, in turn. */
export const KINDS = 21;

/**
 * The i-th warm-up request: every route and the common kinds of search, each drawing its values in turn
 * from the seeds so that successive requests differ (a repeated one would be answered from a kept page).
 */
export function warmUpPath(s: Seeds, i: number): string {
  const pick = (xs: string[] | undefined, k: number) => (xs?.length ? xs[k % xs.length] : undefined);
  const q = (params: Record<string, string | undefined>) => {
    const set = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    return set.length ? `?${new URLSearchParams(set).toString()}` : '';
  };
  const k = Math.floor(i / KINDS);
  const v = s.values;
  const word = pick(s.titleWords, k);
  const other = pick(s.titleWords, k * 7 + 3);
  const country = pick(v.country, k);
  const id = pick(s.ids, k);
  switch (i % KINDS) {
    case 0:
      return `/v1/jobs${q({ country })}`;
    case 1:
      return `/v1/jobs${q({ country: pick(v.country, k + 1), title: word })}`;
    case 2:
      return `/v1/jobs${q({ title: word && other ? `"${word} ${other}"` : word })}`;
    case 3:
      return `/v1/jobs${q({ skill: pick(v.skills, k), country: pick(v.country, k * 3) })}`;
    case 4:
      return `/v1/jobs${q({ taxonomies: pick(v.taxonomies, k), remote: k % 2 ? 'true' : 'false' })}`;
    case 5:
      return `/v1/jobs${q({ company_industry: pick(v.company_industry, k), seniority: pick(v.seniority, k) })}`;
    case 6:
      return `/v1/jobs${q({ description: word })}`;
    case 7:
      return `/v1/jobs${q({ title_advanced: word && `${word.slice(0, 4)}:*` })}`;
    case 8:
      return `/v1/jobs${q({ salary_gte: String(20_000 + (k % 20) * 5_000) })}`;
    case 9:
      return `/v1/jobs${q({ collapse: 'true', title: word })}`;
    case 10:
      return `/v1/jobs${q({ offset: String(1000 + (k % 9) * 1000), country })}`;
    case 11:
      return `/v1/jobs/count${q({ title: word, city: pick(v.city, k) })}`;
    case 12:
      return id ? `/v1/jobs/${encodeURIComponent(id)}` : '/v1/meta';
    case 13:
      return `/v1/companies${q({ q: word })}`;
    case 14:
      return `/v1/jobs/feed${q({ since: `${30 + (k % 60)}d` })}`;
    case 15:
      return `/v1/jobs/modified${q({ since: `${30 + (k % 60)}d` })}`;
    case 16:
      return `/v1/jobs/expired${q({ since: `${30 + (k % 60)}d` })}`;
    case 17:
      return `/v1/jobs/facets${q({ facets: 'country,skills,seniority,company', title: word })}`;
    case 18:
      return `/v1/jobs/salary${q({ country })}`;
    case 19:
      return `/v1/jobs/trends${q({ country, interval: 'week' })}`;
    default:
      return id ? `/v1/jobs/${encodeURIComponent(id)}/history` : '/v1/sources';
  }
}
/**
 * Sends warm-up requests through `app` until the budget is spent. `header` marks them (the app answers
 * them without a key and leaves them out of its request figures). Never throws: it is an optimisation.
 */
export async function warmUp(
  app: FastifyInstance,
  header: Record<string, string>,
  budget: WarmUpBudget,
): Promise<WarmUpReport> {
  const started = performance.now();
  const report: WarmUpReport = { requests: 0, ms: 0, statuses: {} };
  const send: Send = async (url) => {
    report.requests++;
    const res = await app.inject({ method: 'GET', url, headers: header });
    report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
    return { status: res.statusCode, body: res.body };
  };
  const left = () => report.requests < budget.requests && performance.now() - started < budget.ms;
  try {
    const seeds = await readSeeds(send);
    let next = 0;
    const lane = async () => {
      while (left()) await send(warmUpPath(seeds, next++));
    };
    await Promise.all(Array.from({ length: Math.max(1, budget.concurrency) }, lane));
  } catch {
    // What was warmed stays warm; the rest is left to the first requests.
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}
