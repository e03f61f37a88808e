// What a reader takes from a genuine payload, compared with what the Job shows: each file loaded
// through its adapter (as `ingest --format` loads it) and enriched as the ingest enriches it.
import fs from 'node:fs';
import { enrichPosting } from '../../../src/enrich/posting.ts';
import { findCities, findRegions, foldKey } from '../../../src/geo/gazetteer.ts';
import type { ConvertContext } from '../../../src/ingest/adapters/index.ts';
import type { EnrichedPosting } from '../../../src/model/enriched.ts';
import type { PostingRecord } from '../../../src/model/record.ts';
import { loadReal } from '../../helpers/real-payloads.ts';

export const NOW = new Date('2026-11-27T00:00:00Z');

export interface Loaded {
  rec: PostingRecord;
  job: EnrichedPosting;
}

/** Every posting of one file, by id, with its enriched Job; plus the file's report. */
export async function loadJobs(format: string, file: string, ctx: ConvertContext = {}) {
  const res = await loadReal(format, file, { now: NOW, ...ctx });
  const jobs = new Map<string, Loaded>();
  for (const [id, rec] of res.postings) jobs.set(id, { rec, job: enrichPosting(rec) });
  return { jobs, file: res.file };
}

/** The places a reader takes from a posting. `undefined` leaves a fact unasserted (the payload is silent). */
export interface Places {
  cities?: string[];
  regions?: string[];
  countries: string[];
  remote?: boolean;
}

export interface Fact {
  format: string;
  id: string;
  fact: string;
  expected: unknown;
  actual: unknown;
  ok: boolean;
}

// A city is the same city whatever the spelling ("Bangalore" and "Bengaluru", "New York" and "New York City").
const cityKey = (name: string, cc?: string) =>
  foldKey((cc ? findCities(name, cc)[0] : undefined)?.name ?? findCities(name)[0]?.name ?? name);
// A region is named, not coded ("MO" is no region name a reader would accept); spellings of one region agree.
const regionKey = (name: string) => {
  const r = findRegions(name)[0];
  return r ? `${r.cc}:${foldKey(r.name)}` : foldKey(name);
};

const sorted = (xs: string[]) => [...xs].sort();

/** Facts of places: countries, cities and regions as sets (a name twice is wrong), remote. */
export function placeFacts(format: string, id: string, job: EnrichedPosting, want: Places): Fact[] {
  const out: Fact[] = [];
  const add = (fact: string, expected: unknown, actual: unknown, ok: boolean) =>
    out.push({ format, id, fact, expected, actual, ok });
  const countries = job.location.countries;
  add(
    'countries',
    sorted(want.countries),
    sorted(countries),
    JSON.stringify(sorted(want.countries)) === JSON.stringify(sorted(countries)),
  );
  if (want.cities) {
    const got = job.location.cities ?? [];
    const a = sorted(got.map((c) => cityKey(c)));
    const e = sorted([...new Set(want.cities.map((c) => cityKey(c)))]);
    add('cities', sorted(want.cities), sorted(got), JSON.stringify(a) === JSON.stringify(e));
  }
  if (want.regions) {
    const got = job.location.regions ?? [];
    const a = sorted(got.map(regionKey));
    const e = sorted([...new Set(want.regions.map(regionKey))]);
    add('regions', sorted(want.regions), sorted(got), JSON.stringify(a) === JSON.stringify(e));
  }
  if (want.remote !== undefined)
    add('remote', want.remote, job.location.remote, want.remote === job.location.remote);
  return out;
}

/** A fact compared as is. */
export function fact(format: string, id: string, name: string, expected: unknown, actual: unknown): Fact {
  return {
    format,
    id,
    fact: name,
    expected,
    actual,
    ok: JSON.stringify(expected) === JSON.stringify(actual),
  };
}

/** Whether the Job is live on NOW: no expiry, or one still ahead. */
export function isLive(rec: PostingRecord): boolean {
  return !rec.expires_at || new Date(rec.expires_at).getTime() > NOW.getTime();
}

/** The wrong facts only, in a form a failing assertion prints readably. */
export function wrong(facts: Fact[]): string[] {
  return facts
    .filter((f) => !f.ok)
    .map((f) => `${f.id} ${f.fact}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`);
}

/** Per format, facts right and wrong: appended to REAL_PAYLOADS_TALLY (a file) when set, for reports. */
export function tally(suite: string, facts: Fact[]): void {
  const file = process.env.REAL_PAYLOADS_TALLY;
  if (!file) return;
  const by: Record<string, { postings: Set<string>; right: number; wrong: number }> = {};
  for (const f of facts) {
    by[f.format] ??= { postings: new Set(), right: 0, wrong: 0 };
    by[f.format].postings.add(f.id);
    if (f.ok) by[f.format].right++;
    else by[f.format].wrong++;
  }
  for (const [format, t] of Object.entries(by))
    fs.appendFileSync(
      file,
      `${JSON.stringify({ suite, format, postings: t.postings.size, right: t.right, wrong: t.wrong })}\n`,
    );
}
