// The request kinds of the benchmark and the realistic parameter values they use, picked from the
// loaded data (the most common country, title words, skills that occur together, and so on).
import type pg from 'pg';
import { ENGLISH_STOP_WORDS } from '../../src/search/stopwords.ts';

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

/** Keys by count, most common first (ties in insertion order), those that `accept` allows. */
function ranked<T>(counts: Map<T, number>, accept: (k: T) => boolean = () => true): T[] {
  return [...counts.entries()]
    .filter(([k]) => accept(k))
    .sort((a, b) => b[1] - a[1])
    .map(([k]) => k);
}

function bump<T>(m: Map<T, number>, k: T) {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** The values of the loaded data that requests use, each list most common first. */
export interface Sample {
  countries: string[];
  titleWords: string[];
  titlePhrases: string[];
  /** Skills that are one plain word: words people type into a description search. */
  plainSkills: string[];
  /** Words of the descriptions (4–12 letters, no stop words), by the number of descriptions they are in. */
  descriptionWords: string[];
  skillPairs: [string, string][];
  remoteTaxonomies: string[];
  industries: string[];
  sizeRanges: string[];
  /** Words of company names (of the 5,000 most followed companies). */
  nameWords: string[];
  companyIndustries: string[];
  /** Percentiles 0.05, 0.10, … 0.95 of the annual salary bounds of live jobs with a salary. */
  salaryMax: number[];
  salaryMin: number[];
  ids: string[];
}

/** Reads a sample of the live jobs and the companies. */
export async function sampleData(db: pg.Pool, sampleIds = 2000): Promise<Sample> {
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
  const contentWord = (w: string) => w.length >= 5 && !STOP.has(w) && !SENIORITY.has(w);

  const { rows: ind } = await db.query<{ industry_key: string; size_range: string }>(
    `SELECT c.industry_key, c.size_range
       FROM jobs j JOIN companies c ON c.slug = j.company_slug
      WHERE j.id IN (SELECT id FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (8) WHERE state = 0)
        AND c.industry_key IS NOT NULL AND c.size_range IS NOT NULL`,
    [Math.min(100, (5000 / live) * 100)],
  );
  const industries = new Map<string, number>();
  const sizes = new Map<string, number>();
  for (const r of ind) {
    bump(industries, r.industry_key);
    bump(sizes, r.size_range);
  }
  const { rows: comp } = await db.query<{ name: string; industry_key: string | null }>(
    'SELECT name, industry_key FROM companies ORDER BY followers DESC LIMIT 5000',
  );
  const nameWords = new Map<string, number>();
  const compIndustries = new Map<string, number>();
  for (const c of comp) {
    for (const w of new Set(c.name.toLowerCase().split(/[^a-z]+/))) if (w.length >= 4) bump(nameWords, w);
    if (c.industry_key) bump(compIndustries, c.industry_key);
  }

  const { rows: sal } = await db.query<{ hi: number[]; lo: number[] }>(
    `SELECT percentile_disc(ARRAY(SELECT generate_series(5, 95, 5) / 100.0))
              WITHIN GROUP (ORDER BY salary_annual_max) AS hi,
            percentile_disc(ARRAY(SELECT generate_series(5, 95, 5) / 100.0))
              WITHIN GROUP (ORDER BY salary_annual_min) AS lo
       FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (9) WHERE state = 0 AND has_salary`,
    [pct],
  );
  const { rows: descRows } = await db.query<{ text: string }>(
    `SELECT coalesce(desc_text, '') AS text FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (11)
      WHERE state = 0 LIMIT 600`,
    [Math.min(100, (1200 / live) * 100)],
  );
  const descWords = new Map<string, number>();
  for (const r of descRows) {
    // Generated descriptions may carry escaped line breaks (a backslash and `n`): not part of a word.
    for (const w of new Set(
      r.text
        .replace(/\\[nrt]/g, ' ')
        .toLowerCase()
        .split(/[^a-z]+/),
    ))
      if (w.length >= 4 && w.length <= 12 && !ENGLISH_STOP_WORDS.has(w) && !STOP.has(w)) bump(descWords, w);
  }
  const { rows: idRows } = await db.query<{ id: string }>(
    `SELECT id FROM jobs TABLESAMPLE BERNOULLI ($1) REPEATABLE (10) WHERE state <> 2 LIMIT $2`,
    [Math.min(100, ((sampleIds * 2) / live) * 100), sampleIds],
  );
  return {
    countries: ranked(countries),
    titleWords: ranked(words, contentWord),
    titlePhrases: ranked(pairs),
    plainSkills: ranked(skillCounts, (s) => /^[a-z]{5,10}$/.test(s)),
    descriptionWords: ranked(descWords),
    skillPairs: ranked(skillPairs).map((p) => p.split(',') as [string, string]),
    remoteTaxonomies: ranked(remoteTax),
    industries: ranked(industries),
    sizeRanges: ranked(sizes),
    nameWords: ranked(nameWords),
    companyIndustries: ranked(compIndustries),
    salaryMax: (sal[0]?.hi ?? []).map(Number),
    salaryMin: (sal[0]?.lo ?? []).map(Number),
    ids: idRows.map((r) => r.id),
  };
}

/** The fixed mix's values: the most common of each list. */
export function pickParameters(s: Sample): Picks {
  const round = (x: number | undefined) => Math.round(Number(x) / 5000) * 5000 || 50_000;
  const industry = s.industries[0] ?? 'software development';
  return {
    country: s.countries[0] ?? 'US',
    country2: s.countries[1] ?? s.countries[0] ?? 'GB',
    titleWord: s.titleWords[0] ?? 'engineer',
    titleWord2: s.titleWords[1] ?? 'manager',
    titlePhrase: s.titlePhrases[0] ?? 'software engineer',
    descriptionTerm: s.plainSkills[0] ?? 'python',
    skills: s.skillPairs[0] ?? ['python', 'sql'],
    remoteTaxonomy: s.remoteTaxonomies[0] ?? 'Software',
    industry,
    sizeRange: s.sizeRanges[0] ?? '51-200 employees',
    // The median of the maxima and the third quartile of the minima.
    salaryGte: round(s.salaryMax[9]),
    salaryLte: round(s.salaryMin[14]),
    // A name fragment shared by several companies, but not by most: the 20th most common name word.
    companyQuery: s.nameWords[Math.min(19, s.nameWords.length - 1)] ?? 'tech',
    companyIndustry: s.companyIndustries[0] ?? industry,
    ids: s.ids,
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

/** A small seeded PRNG (mulberry32), so that a varied run sends the same requests every time. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The varied mix: the same kinds and weights as the fixed one, but each kind draws its requests from
 * combinations of many distinct values of the data (the 60 most common countries, 80 title words, …), up
 * to `perKind` distinct requests each, in a seeded random order, so that nearly every request of a
 * measured window is one the service has not answered before. Description searches (`description` and
 * `description_advanced`) draw from the 100 most common words of the descriptions, the most common
 * included, and prefix terms from the first letters of those words and of the title words.
 */
export function buildVariedKinds(s: Sample, perKind = 1000, seed = 1): Kind[] {
  const rnd = prng(seed);
  const pick = <T>(xs: T[], n = xs.length): T => xs[Math.floor(rnd() * Math.min(n, xs.length))];
  const countries = s.countries.slice(0, 60);
  const words = s.titleWords.slice(0, 80);
  const descWords = s.descriptionWords.slice(0, 100);
  // A prefix a user types: the first 60 % of a word, at least 4 letters.
  // A prefix that is itself a stop word ("with" of "within") is dropped by the text search, leaving no term
  // (a 400): one letter more.
  const prefix = (w: string) => {
    let n = Math.max(4, Math.ceil(w.length * 0.6));
    while (n < w.length && ENGLISH_STOP_WORDS.has(w.slice(0, n))) n++;
    return `${w.slice(0, n)}:*`;
  };
  const round = (x: number) => Math.max(5000, Math.round(x / 5000) * 5000);
  const lows = s.salaryMax.map(round);
  const highs = s.salaryMin.map(round);
  const distinct = (make: () => string, n = perKind): string[] => {
    const out = new Set<string>();
    for (let tries = 0; out.size < n && tries < n * 20; tries++) out.add(make());
    return [...out];
  };
  const units = ['h', 'd'];
  const paths: Record<string, () => string> = {
    newest: () => `/v1/jobs?${q({ time_frame: `${1 + Math.floor(rnd() * 90)}${pick(units)}` })}`,
    country: () => `/v1/jobs?${q({ country: pick(countries) })}`,
    country_title: () => `/v1/jobs?${q({ country: pick(countries), title: pick(words) })}`,
    title_phrase: () => `/v1/jobs?${q({ title: `"${pick(s.titlePhrases, 200)}"` })}`,
    description: () =>
      pick([
        () => `/v1/jobs?${q({ description: pick(descWords) })}`,
        () => `/v1/jobs?${q({ description: pick(descWords), country: pick(countries, 20) })}`,
        () => `/v1/jobs?${q({ description: pick(s.plainSkills, 80), country: pick(countries, 20) })}`,
        () => `/v1/jobs?${q({ description_advanced: `${pick(descWords)} & ${pick(descWords)}` })}`,
        () => `/v1/jobs?${q({ description_advanced: prefix(pick(descWords)) })}`,
      ])(),
    title_advanced: () =>
      pick([
        () =>
          `/v1/jobs?${q({ title_advanced: `(${pick(words)} | ${pick(words)}) & !${pick(['senior', 'junior', 'lead'])}` })}`,
        () => `/v1/jobs?${q({ title_advanced: prefix(pick(words)) })}`,
      ])(),
    salary: () => {
      const gte = pick(lows);
      return `/v1/jobs?${q({ salary_gte: gte, salary_lte: Math.max(gte, pick(highs)) })}`;
    },
    skill_and: () => `/v1/jobs?${q({ skill: pick(s.skillPairs, 300).join(',') })}`,
    remote_taxonomy: () =>
      `/v1/jobs?${q({ remote: pick(['true', 'false']), taxonomies: pick(s.remoteTaxonomies), country: pick(countries, 30) })}`,
    company: () =>
      `/v1/jobs?${q({ company_industry: pick(s.industries, 60), company_size: pick(s.sizeRanges) })}`,
    collapse: () => `/v1/jobs?${q({ collapse: 'true', title: pick(words) })}`,
    deep_offset: () =>
      `/v1/jobs?${q({ offset: 1000 + Math.floor(rnd() * 9000), country: pick(countries, 10) })}`,
    cursor_walk: () => `/v1/jobs?${q({ country: pick(countries), limit: 50 })}`,
    count: () =>
      pick([
        () => `/v1/jobs/count?${q({ country: pick(countries) })}`,
        () => `/v1/jobs/count?${q({ title: pick(words) })}`,
        () => `/v1/jobs/count?${q({ skill: pick(s.plainSkills, 200) })}`,
      ])(),
    job_by_id: () => `/v1/jobs/${encodeURIComponent(pick(s.ids)).replace(/%3A/g, ':')}`,
    companies: () =>
      pick([
        () => `/v1/companies?${q({ q: pick(s.nameWords, 300) })}`,
        () => `/v1/companies?${q({ industry: pick(s.companyIndustries, 100) })}`,
      ])(),
    feed: () => `/v1/jobs/feed?since=${30 + Math.floor(rnd() * 3620)}d&limit=200`,
    modified: () => `/v1/jobs/modified?since=${30 + Math.floor(rnd() * 3620)}d&limit=200`,
    expired: () => `/v1/jobs/expired?since=${30 + Math.floor(rnd() * 3620)}d&limit=1000`,
  };
  return [
    ...buildKinds(pickParameters(s)).map((k) => ({ ...k, paths: distinct(paths[k.name]) })),
    ...analyticsVariedKinds(s, perKind, seed),
  ];
}

/**
 * The analytics kinds of the varied mix (facets, salary distribution, trends), 1 % each on top of the
 * fixed kinds' 100: the filters drawn as the varied mix draws them, from their own seeded sequence so
 * that the other kinds send the same requests as without them.
 */
export function analyticsVariedKinds(s: Sample, perKind = 1000, seed = 1): Kind[] {
  const rnd = prng(seed + 0x41);
  const pick = <T>(xs: T[], n = xs.length): T => xs[Math.floor(rnd() * Math.min(n, xs.length))];
  const countries = s.countries.slice(0, 60);
  const words = s.titleWords.slice(0, 80);
  const distinct = (make: () => string): string[] => {
    const out = new Set<string>();
    for (let tries = 0; out.size < perKind && tries < perKind * 20; tries++) out.add(make());
    return [...out];
  };
  const dims = ['country', 'remote', 'seniority', 'skills', 'company', 'company_industry', 'source', 'city'];
  // Five dimensions a request, as a job board's sidebar asks them.
  const facetList = () => {
    const out = new Set<string>();
    while (out.size < 5) out.add(pick(dims));
    return [...out].join(',');
  };
  const filters = (): Record<string, string | number> =>
    pick([
      () => ({}),
      () => ({ country: pick(countries) }),
      () => ({ country: pick(countries), title: pick(words) }),
      () => ({ skill: pick(s.skillPairs, 300).join(',') }),
      () => ({ remote: pick(['true', 'false']), taxonomies: pick(s.remoteTaxonomies) }),
      () => ({ company_industry: pick(s.industries, 60) }),
    ])();
  const day = 86_400_000;
  const make: Record<string, () => string> = {
    facets: () =>
      `/v1/jobs/facets?${q({ ...filters(), facets: facetList(), facet_limit: pick([5, 10, 20]), ...(rnd() < 0.1 ? { collapse: 'true' } : {}) })}`,
    salary_distribution: () => `/v1/jobs/salary?${q(filters())}`,
    trends: () => {
      const days = 7 + Math.floor(rnd() * 358);
      // To the next midnight: today's entries and expiries (a round's) are in the window.
      const until = new Date(Math.ceil(Date.now() / day) * day);
      return `/v1/jobs/trends?${q({
        ...filters(),
        since: new Date(until.getTime() - days * day).toISOString().slice(0, 10),
        until: until.toISOString().slice(0, 10),
        interval: days > 120 ? 'week' : 'day',
      })}`;
    },
  };
  return Object.entries(make).map(([name, f]) => ({ name, weight: 1, paths: distinct(f) }));
}
