import { createHash } from 'node:crypto';
import ct from 'countries-and-timezones';
import { describe, expect, it } from 'vitest';
import { DemoDataset, generateDataset } from '../../src/demo/generate.ts';
import { countryName, toCountryCode } from '../../src/geo/countries.ts';
import type { CanonicalLine, CompanyRecord, PostingRecord } from '../../src/model/record.ts';
import { KNOWN_SOURCES } from '../../src/model/sources.ts';

// The enum tables of the spec, copied verbatim.
const CONTINENTS = ['Africa', 'Antarctica', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'];
const WORK_ARRANGEMENT = ['On-site', 'Hybrid', 'Remote'];
const EMPLOYMENT_TYPE = [
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
  'PER_DIEM',
  'VOLUNTEER',
  'OTHER',
];
const SENIORITY = ['Internship', 'Entry level', 'Associate', 'Mid-Senior level', 'Director', 'Management'];
const EXPERIENCE = ['0-2', '2-5', '5-10', '10+'];
const EDUCATION = [
  'high school',
  'professional certificate',
  'associate degree',
  'bachelor degree',
  'postgraduate degree',
];
const TAXONOMIES = [
  'Administrative',
  'Agriculture',
  'Art & Design',
  'Construction',
  'Consulting',
  'Creative & Media',
  'Customer Service & Support',
  'Data & Analytics',
  'Education',
  'Energy',
  'Engineering',
  'Finance & Accounting',
  'Healthcare',
  'Hospitality',
  'Human Resources',
  'Legal',
  'Logistics',
  'Management & Leadership',
  'Manufacturing',
  'Marketing',
  'Sales',
  'Science & Research',
  'Security & Safety',
  'Social Services',
  'Software',
  'Technology',
  'Trades',
  'Transportation',
];
const SIZE_RANGES: [number, number, string][] = [
  [1, 10, '1-10 employees'],
  [11, 50, '11-50 employees'],
  [51, 200, '51-200 employees'],
  [201, 500, '201-500 employees'],
  [501, 1000, '501-1000 employees'],
  [1001, 5000, '1001-5000 employees'],
  [5001, 10000, '5001-10000 employees'],
  [10001, Number.MAX_SAFE_INTEGER, '10001+ employees'],
];
// Record fields behind the spec's tracked-field vocabulary, plus expiry.
const TRACKED = [
  'title',
  'location',
  'salary',
  'employment_type',
  'work_arrangement',
  'department',
  'apply_url',
  'url',
  'description_html',
  'description_text',
  'remote_location',
  'expires_at',
];
const UNITS = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR'];
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NOW = new Date('2025-06-01T12:00:00.000Z');
const SOURCES = new Map(KNOWN_SOURCES.map((s) => [s.slug, s]));

function digest(lines: Iterable<CanonicalLine>): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(`${JSON.stringify(l)}\n`);
  return h.digest('hex');
}

function split(lines: Iterable<CanonicalLine>) {
  const postings: PostingRecord[] = [];
  const companies: CompanyRecord[] = [];
  const kinds: string[] = [];
  for (const l of lines) {
    kinds.push(l.kind);
    if (l.kind === 'posting') postings.push(l);
    else if (l.kind === 'company') companies.push(l);
  }
  return { postings, companies, kinds };
}

const allIn = (values: unknown, allowed: string[]) =>
  Array.isArray(values) && values.every((v) => allowed.includes(v as string));

function checkPosting(p: PostingRecord, at: number): void {
  const where = p.id;
  const src = SOURCES.get(p.source);
  expect(src, where).toBeDefined();
  expect(p.id.startsWith(`${p.source}:`), where).toBe(true);
  expect(p.id.length).toBeGreaterThan(p.source.length + 1);
  expect(p.title.trim().length, where).toBeGreaterThan(0);
  expect(p.company.name.trim().length, where).toBeGreaterThan(0);
  expect(p.url.startsWith(`https://${src!.domain}/`), where).toBe(true);
  if (p.apply_url) expect(() => new URL(p.apply_url!)).not.toThrow();
  expect(p.description_html ?? p.description_text, where).toBeTruthy();
  const loc = p.location!;
  expect(loc.raw!.length, where).toBeGreaterThan(0);
  expect(typeof loc.remote).toBe('boolean');
  expect(CONTINENTS).toContain(loc.continent);
  expect(loc.countries!.length, where).toBeGreaterThan(0);
  for (const c of loc.countries!) {
    const code = toCountryCode(c);
    expect(code, c).toBeDefined();
    expect(countryName(code!)).toBe(c);
  }
  expect(loc.timezones!.length, where).toBeGreaterThan(0);
  for (const z of loc.timezones!) expect(ct.getTimezone(z), z).toBeTruthy();
  if (!loc.remote) expect(loc.cities!.length, where).toBeGreaterThan(0);
  expect(WORK_ARRANGEMENT).toContain(p.work_arrangement);
  expect(p.work_arrangement === 'Remote', where).toBe(loc.remote);
  if (loc.remote) expect(p.remote_location!.length, where).toBeGreaterThan(0);
  expect(allIn(p.employment_type, EMPLOYMENT_TYPE), where).toBe(true);
  expect(p.employment_type!.length).toBeGreaterThan(0);
  if (p.seniority !== undefined) expect(SENIORITY).toContain(p.seniority);
  if (p.experience_level !== undefined) expect(EXPERIENCE).toContain(p.experience_level);
  if (p.education_requirements !== undefined)
    expect(allIn(p.education_requirements, EDUCATION), where).toBe(true);
  if (p.taxonomies !== undefined) expect(allIn(p.taxonomies, TAXONOMIES), where).toBe(true);
  for (const s of p.skills ?? []) expect(s, where).toMatch(/^[a-z0-9+#]+$/);
  expect(['en', 'de', 'fr', 'es']).toContain(p.job_language);
  if (p.salary) {
    const s = p.salary;
    expect(s.min!, where).toBeGreaterThan(0);
    expect(s.max!, where).toBeGreaterThanOrEqual(s.min!);
    expect(s.currency).toMatch(/^[A-Z]{3}$/);
    expect(UNITS).toContain(s.unit);
  }
  expect(p.posted_at).toMatch(ISO_MS);
  expect(Date.parse(p.posted_at!), where).toBeLessThanOrEqual(at);
  if (p.expires_at) {
    expect(p.expires_at).toMatch(ISO_MS);
    expect(Date.parse(p.expires_at), where).toBeGreaterThan(Date.parse(p.posted_at!));
  }
  if (p.visa_sponsorship === true)
    expect(p.description_html ?? p.description_text).toMatch(/Visa sponsorship available/);
  if (p.visa_sponsorship === false)
    expect(p.description_html ?? p.description_text).toMatch(/unable to sponsor visas/);
}

describe('generateDataset', () => {
  const opts = { jobs: 4000, seed: 42, now: NOW };
  const data = split(generateDataset(opts));

  it('is deterministic for a seed and differs for another', () => {
    const a = digest(generateDataset({ jobs: 600, seed: 1, now: NOW }));
    const b = digest(generateDataset({ jobs: 600, seed: 1, now: NOW }));
    const c = digest(generateDataset({ jobs: 600, seed: 2, now: NOW }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('emits sources, then companies, then exactly the requested postings', () => {
    const order = data.kinds.map((k) => ({ source: 0, company: 1, posting: 2 })[k]!);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(data.kinds.filter((k) => k === 'source')).toHaveLength(KNOWN_SOURCES.length);
    expect(data.postings).toHaveLength(4000);
    expect(data.companies).toHaveLength(200);
  });

  it('produces valid postings with spec enums and unique ids', () => {
    const ids = new Set<string>();
    for (const p of data.postings) {
      checkPosting(p, NOW.getTime());
      expect(ids.has(p.id), p.id).toBe(false);
      ids.add(p.id);
    }
  });

  it('points every copy at an existing ATS original with the same company, title and location', () => {
    const byUrl = new Map(data.postings.filter((p) => !p.canonical_url).map((p) => [p.url, p]));
    const copies = data.postings.filter((p) => p.canonical_url);
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      const o = byUrl.get(c.canonical_url!);
      expect(o, c.id).toBeDefined();
      expect(SOURCES.get(o!.source)!.type).toBe('ats');
      expect(SOURCES.get(c.source)!.type).not.toBe('ats');
      expect(c.title).toBe(o!.title);
      expect(c.company.name).toBe(o!.company.name);
      expect(c.location).toEqual(o!.location);
      expect(
        (c.description_html ?? c.description_text)!.startsWith((o!.description_html ?? o!.description_text)!),
      ).toBe(true);
    }
  });

  it('produces consistent company profiles', () => {
    const slugs = new Set<string>();
    for (const c of data.companies) {
      expect(slugs.has(c.slug)).toBe(false);
      slugs.add(c.slug);
      expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const bucket = SIZE_RANGES.find(([lo, hi]) => c.employee_count! >= lo && c.employee_count! <= hi)!;
      expect(c.size_range).toBe(bucket[2]);
      if (c.hq) expect(countryName(c.hq.country!)).toBeDefined();
      expect(c.website).toBe(`https://www.${c.domain}`);
    }
    expect(data.companies.some((c) => c.data_tier === 'remco')).toBe(true);
    expect(data.companies.some((c) => c.funding === null)).toBe(true);
    expect(data.companies.some((c) => c.funding !== null)).toBe(true);
    // Slugs are not simply the slugified name.
    const derived = data.companies.filter((c) => c.slug === c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
    expect(derived.length).toBeLessThan(data.companies.length * 0.5);
    for (const p of data.postings) if (p.company.slug) expect(slugs.has(p.company.slug), p.id).toBe(true);
  });

  it('has roughly the intended distributions', () => {
    const n = data.postings.length;
    const share = (f: (p: PostingRecord) => boolean) => data.postings.filter(f).length / n;
    expect(share((p) => p.location!.countries![0] === 'United States')).toBeGreaterThan(0.35);
    expect(share((p) => p.location!.countries![0] === 'United States')).toBeLessThan(0.55);
    expect(share((p) => !!p.salary)).toBeGreaterThanOrEqual(0.33);
    expect(share((p) => !!p.salary)).toBeLessThanOrEqual(0.4);
    expect(share((p) => !!p.canonical_url)).toBeGreaterThan(0.25);
    expect(share((p) => !!p.canonical_url)).toBeLessThan(0.35);
    expect(share((p) => p.job_language !== 'en')).toBeGreaterThan(0.02);
    expect(share((p) => p.title === p.title.toUpperCase())).toBeGreaterThan(0.01);
    expect(share((p) => p.work_arrangement === 'Remote')).toBeGreaterThan(0.04);
    expect(share((p) => p.visa_sponsorship !== undefined)).toBeGreaterThan(0.02);
    expect(share((p) => p.visa_sponsorship !== undefined)).toBeLessThan(0.15);
    const past = share((p) => !!p.expires_at && Date.parse(p.expires_at) < NOW.getTime());
    expect(past).toBeGreaterThan(0.01);
    expect(past).toBeLessThan(0.08);
    // Posting dates spread over about six months, the newest within hours of now.
    const posted = data.postings.map((p) => Date.parse(p.posted_at!));
    expect(NOW.getTime() - Math.max(...posted)).toBeLessThan(6 * 3_600_000);
    expect(NOW.getTime() - Math.min(...posted)).toBeGreaterThan(150 * 86_400_000);
    // Slug omitted for some originals; some employers have no profile at all.
    const originals = data.postings.filter((p) => !p.canonical_url);
    const noSlug = originals.filter((p) => !p.company.slug).length / originals.length;
    expect(noSlug).toBeGreaterThan(0.06);
    expect(noSlug).toBeLessThan(0.2);
    const names = new Set(data.companies.map((c) => c.name));
    const domains = new Set(data.companies.map((c) => c.domain));
    const unresolvable = originals.filter(
      (p) => !p.company.slug && !domains.has(p.company.domain) && !names.has(p.company.name),
    );
    expect(unresolvable.length / originals.length).toBeGreaterThan(0.01);
    expect(unresolvable.length / originals.length).toBeLessThan(0.06);
    // Zipf-like: the largest employer posts far more than the median one.
    const per = new Map<string, number>();
    for (const p of originals) per.set(p.company.name, (per.get(p.company.name) ?? 0) + 1);
    const counts = [...per.values()].sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(10 * counts[Math.floor(counts.length / 2)]);
    // Descriptions of realistic length.
    const lengths = data.postings
      .map((p) => (p.description_html ?? p.description_text)!.length)
      .sort((a, b) => a - b);
    expect(lengths[Math.floor(n * 0.05)]).toBeGreaterThan(900);
    expect(lengths[n - 1]).toBeLessThan(7000);
  });
});

describe('rounds', () => {
  const opts = { jobs: 3000, seed: 9, rounds: 3, now: NOW };
  const ds = new DemoDataset(opts);
  const base = split(ds.base()).postings;
  const rounds = [1, 2, 3].map((r) => split(ds.round(r)).postings);

  it('are deterministic', () => {
    const again = new DemoDataset(opts);
    expect(digest(again.round(2))).toBe(digest(ds.round(2)));
  });

  it('modify, expire, remove and add postings', () => {
    const known = new Map(base.map((p) => [p.id, p]));
    const gone = new Set<string>();
    for (const [k, lines] of rounds.entries()) {
      const at = ds.baseTime + (k + 1) * 3_600_000;
      const ids = new Set<string>();
      let changed = 0;
      let added = 0;
      let expired = 0;
      for (const p of lines) {
        checkPosting(p, at);
        expect(ids.has(p.id), p.id).toBe(false);
        ids.add(p.id);
        expect(gone.has(p.id), p.id).toBe(false);
        const before = known.get(p.id);
        if (p.gone) {
          expect(before, p.id).toBeDefined();
          gone.add(p.id);
          continue;
        }
        if (!before) added++;
        else if (JSON.stringify(before) !== JSON.stringify(p)) {
          changed++;
          // One kind of change per round: tracked fields, expiry, or enrichment only.
          const keys = Object.keys({ ...before, ...p }).filter(
            (k) =>
              JSON.stringify(before[k as keyof PostingRecord]) !==
              JSON.stringify(p[k as keyof PostingRecord]),
          );
          const enrichment = keys.every((k) => k === 'skills' || k === 'taxonomies');
          const tracked = keys.every((k) => TRACKED.includes(k));
          expect(enrichment || tracked, `${p.id}: ${keys.join(',')}`).toBe(true);
        }
        if (before && p.expires_at && Date.parse(p.expires_at) <= at && before.expires_at !== p.expires_at)
          expired++;
        if (p.canonical_url)
          expect(
            [...known.values()].some((o) => o.url === p.canonical_url) ||
              lines.some((o) => o.url === p.canonical_url),
          ).toBe(true);
        known.set(p.id, p);
      }
      expect(changed, `round ${k + 1}`).toBeGreaterThan(0);
      expect(added, `round ${k + 1}`).toBeGreaterThan(0);
      expect(expired, `round ${k + 1}`).toBeGreaterThan(0);
      expect(gone.size).toBeGreaterThan(0);
    }
  });

  it('dates the base snapshot one interval per round before now', () => {
    const posted = base.map((p) => Date.parse(p.posted_at!));
    expect(Math.max(...posted)).toBeLessThanOrEqual(NOW.getTime() - 3 * 3_600_000);
    const last = rounds[2].filter((p) => !p.gone).map((p) => Date.parse(p.posted_at!));
    expect(Math.max(...last)).toBeLessThanOrEqual(NOW.getTime());
  });
});
