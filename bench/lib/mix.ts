// The request kinds of the benchmark and the realistic parameter values they use, picked from the
// loaded data (the most common country, title words, skills that occur together, and so on).
import type pg from 'pg';

export interface Kind {
  name: string;
  /** Static request paths, used in turn. */
  paths: string[];
  /** Follow `next_cursor` from the page returned, up to this many pages, then start again. */
  walk?: number;
  /** Share of the mix, in percent. */
  weight: number;
}

export interface Picks {
  country: string;
  country2: string;
  titleWord: string;
  titleWord2: string;
  titlePhrase: string;
  descriptionTerm: string;
  skills: [string, string];
  remoteTaxonomy: string;
  industry: string;
  sizeRange: string;
  salaryGte: number;
  salaryLte: number;
  companyQuery: string;
  companyIndustry: string;
  ids: string[];
}

const STOP = new Set([
  'and',
  'the',
  'for',
  'with',
  'of',
  'in',
  'to',
  'de',
  'und',
  'et',
  'y',
  'la',
  'le',
  'der',
]);
const SENIORITY = new Set(['senior', 'junior', 'lead', 'staff', 'principal', 'head', 'intern', 'chief']);

function top<T>(counts: Map<T, number>, accept: (k: T) => boolean = () => true): T | undefined {
  let best: T | undefined;
  let n = -1;
  for (const [k, c] of counts) if (c > n && accept(k)) [best, n] = [k, c];
  return best;
}

function bump<T>(m: Map<T, number>, k: T) {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** Reads a sample of the live jobs and the companies and picks the parameter values. */
export async function pickParameters(db: pg.Pool, sampleIds = 2000): Promise<Picks> {
  const { rows: countRows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM jobs WHERE state = 0',
  );
  const live = countRows[0].n;
  if (live === 0) throw new Error('no live jobs in the database');
  const pct = Math.min(100, (30_000 / live) * 100);
  const { rows } = await db.query<{
    title_raw: string;
    country_codes: string[];
    skills: string[];
    taxonomies: string[];
    remote: boolean;
  }>(
    `SELECT title_raw, country_codes, skills, taxonomies, remote
       FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (7) WHERE state = 0`,
    [pct],
  );
  const countries = new Map<string, number>();
  const words = new Map<string, number>();
  const pairs = new Map<string, number>();
  const skillPairs = new Map<string, number>();
  const skillCounts = new Map<string, number>();
  const remoteTax = new Map<string, number>();
  for (const r of rows) {
    for (const c of r.country_codes) bump(countries, c);
    const ws = r.title_raw
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 1);
    for (const w of new Set(ws)) bump(words, w);
    for (let i = 0; i + 1 < ws.length; i++) {
      if (!STOP.has(ws[i]) && !STOP.has(ws[i + 1]) && !SENIORITY.has(ws[i]))
        bump(pairs, `${ws[i]} ${ws[i + 1]}`);
    }
    const sk = [...new Set(r.skills)].sort();
    for (const s of sk) bump(skillCounts, s);
    for (let i = 0; i < sk.length; i++)
      for (let j = i + 1; j < sk.length; j++) bump(skillPairs, `${sk[i]},${sk[j]}`);
    if (r.remote) for (const t of r.taxonomies) bump(remoteTax, t);
  }
  const byCount = [...countries.entries()].sort((a, b) => b[1] - a[1]);
  const contentWord = (w: string) => w.length >= 5 && !STOP.has(w) && !SENIORITY.has(w);
  const titleWord = top(words, contentWord) ?? 'engineer';
  const titleWord2 = top(words, (w) => contentWord(w) && w !== titleWord) ?? 'manager';
  const titlePhrase = top(pairs) ?? 'software engineer';
  const skills = (top(skillPairs) ?? 'python,sql').split(',') as [string, string];

  const { rows: ind } = await db.query<{ industry_key: string; size_range: string; name: string }>(
    `SELECT c.industry_key, c.size_range, c.name
       FROM jobs j JOIN companies c ON c.slug = j.company_slug
      WHERE j.id IN (SELECT id FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (8) WHERE state = 0)
        AND c.industry_key IS NOT NULL AND c.size_range IS NOT NULL`,
    [Math.min(100, (5000 / live) * 100)],
  );
  const industries = new Map<string, number>();
  const sizes = new Map<string, number>();
  const nameWords = new Map<string, number>();
  for (const r of ind) {
    bump(industries, r.industry_key);
    bump(sizes, r.size_range);
  }
  const industry = top(industries) ?? 'software development';
  const { rows: comp } = await db.query<{ name: string; industry_key: string | null }>(
    'SELECT name, industry_key FROM companies ORDER BY followers DESC LIMIT 5000',
  );
  const compIndustries = new Map<string, number>();
  for (const c of comp) {
    for (const w of new Set(c.name.toLowerCase().split(/[^a-z]+/))) if (w.length >= 4) bump(nameWords, w);
    if (c.industry_key) bump(compIndustries, c.industry_key);
  }
  // A name fragment shared by several companies, but not by most: the 20th most common name word.
  const fragments = [...nameWords.entries()].sort((a, b) => b[1] - a[1]);
  const companyQuery = (fragments[Math.min(19, fragments.length - 1)] ?? ['tech'])[0];

  const { rows: sal } = await db.query<{ lo: number; hi: number }>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY salary_annual_max) AS lo,
            percentile_disc(0.75) WITHIN GROUP (ORDER BY salary_annual_min) AS hi
       FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (9) WHERE state = 0 AND has_salary`,
    [pct],
  );
  const round = (x: number) => Math.round(Number(x) / 5000) * 5000 || 50_000;

  const { rows: idRows } = await db.query<{ id: string }>(
    `SELECT id FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (10) WHERE state <> 2 LIMIT $2`,
    [Math.min(100, ((sampleIds * 2) / live) * 100), sampleIds],
  );

  return {
    country: byCount[0]?.[0] ?? 'US',
    country2: byCount[1]?.[0] ?? byCount[0]?.[0] ?? 'GB',
    titleWord,
    titleWord2,
    titlePhrase,
    // A word people type: the most common skill that is one plain word (not a joined multi-word skill).
    descriptionTerm: top(skillCounts, (s) => /^[a-z]{5,10}$/.test(s)) ?? 'python',
    skills,
    remoteTaxonomy: top(remoteTax) ?? 'Software',
    industry,
    sizeRange: top(sizes) ?? '51-200 employees',
    salaryGte: round(sal[0]?.lo ?? 100_000),
    salaryLte: round(sal[0]?.hi ?? 150_000),
    companyQuery,
    companyIndustry: top(compIndustries) ?? industry,
    ids: idRows.map((r) => r.id),
  };
}

const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** The fixed mix. Weights sum to 100; they are the shares of each kind in the mixed run. */
export function buildKinds(p: Picks): Kind[] {
  const kinds: Kind[] = [
    { name: 'newest', weight: 12, paths: ['/v1/jobs'] },
    { name: 'country', weight: 10, paths: [`/v1/jobs?${q({ country: p.country })}`] },
    {
      name: 'country_title',
      weight: 10,
      paths: [`/v1/jobs?${q({ country: p.country, title: p.titleWord })}`],
    },
    { name: 'title_phrase', weight: 6, paths: [`/v1/jobs?${q({ title: `"${p.titlePhrase}"` })}`] },
    {
      name: 'description',
      weight: 4,
      paths: [`/v1/jobs?${q({ description: p.descriptionTerm, country: p.country2 })}`],
    },
    {
      name: 'title_advanced',
      weight: 3,
      paths: [`/v1/jobs?${q({ title_advanced: `(${p.titleWord} | ${p.titleWord2}) & !senior` })}`],
    },
    {
      name: 'salary',
      weight: 5,
      paths: [`/v1/jobs?${q({ salary_gte: p.salaryGte, salary_lte: p.salaryLte })}`],
    },
    { name: 'skill_and', weight: 6, paths: [`/v1/jobs?${q({ skill: p.skills.join(',') })}`] },
    {
      name: 'remote_taxonomy',
      weight: 5,
      paths: [`/v1/jobs?${q({ remote: 'true', taxonomies: p.remoteTaxonomy })}`],
    },
    {
      name: 'company',
      weight: 3,
      paths: [`/v1/jobs?${q({ company_industry: p.industry, company_size: p.sizeRange })}`],
    },
    { name: 'collapse', weight: 2, paths: [`/v1/jobs?${q({ collapse: 'true', title: p.titleWord })}`] },
    { name: 'deep_offset', weight: 2, paths: ['/v1/jobs?offset=5000'] },
    {
      name: 'cursor_walk',
      weight: 6,
      walk: 20,
      paths: [`/v1/jobs?${q({ country: p.country2, limit: 50 })}`],
    },
    {
      name: 'count',
      weight: 4,
      paths: [
        '/v1/jobs/count',
        `/v1/jobs/count?${q({ country: p.country })}`,
        `/v1/jobs/count?${q({ title: p.titleWord })}`,
      ],
    },
    {
      name: 'job_by_id',
      weight: 12,
      paths: p.ids.map((id) => `/v1/jobs/${encodeURIComponent(id).replace(/%3A/g, ':')}`),
    },
    {
      name: 'companies',
      weight: 4,
      paths: [
        `/v1/companies?${q({ q: p.companyQuery })}`,
        `/v1/companies?${q({ industry: p.companyIndustry })}`,
      ],
    },
    { name: 'feed', weight: 2, walk: 1000, paths: ['/v1/jobs/feed?since=3650d&limit=200'] },
    { name: 'modified', weight: 2, walk: 1000, paths: ['/v1/jobs/modified?since=3650d&limit=200'] },
    { name: 'expired', weight: 2, walk: 1000, paths: ['/v1/jobs/expired?since=3650d&limit=1000'] },
  ];
  if (kinds.reduce((a, k) => a + k.weight, 0) !== 100) throw new Error('mix weights must sum to 100');
  return kinds;
}
