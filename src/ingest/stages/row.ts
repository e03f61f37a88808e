// Builds the stored row of a job from its canonical record and enrichment: the filter columns,
// the tracked-field values for change detection, and the public JSON rendered once, at write time.
import { createHash } from 'node:crypto';
import {
  type JobContent,
  type Lifecycle,
  type SourceInfo,
  TRACKED_FIELDS,
  type Tracked,
  type TrackedField,
} from '../../model/job-row.ts';
import type { EnrichedPosting } from '../../model/enriched.ts';
import type { PostingRecord } from '../../model/record.ts';
import { nameKey } from './name-key.ts';
import { titleKey } from './title-key.ts';

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Match keys are stored as digests: fixed size, so no posting can outgrow a B-tree entry. */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

/** Canonical form of a URL for matching copies: host lower-cased, tracking parameters and fragment dropped. */
function canonicalUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.hash = '';
    for (const k of [...u.searchParams.keys()]) {
      if (/^(utm_|ref$|source$|src$|gh_src$)/i.test(k)) u.searchParams.delete(k);
    }
    u.hostname = u.hostname.toLowerCase().replace(/^www\./, '');
    return u.toString().replace(/\/$/, '');
  } catch {
    return raw.trim();
  }
}

const FNV_PRIME = 0x01000193;
const SEED_LO = 0x811c9dc5;
const SEED_HI = 0x050c5d1f;
const SPACE = 0x20;

/** One FNV-1a step (32 bits) per UTF-16 unit of s[from, to), continuing from `h`. */
function fnvStep(h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * Bit counting without a branch per bit: SPREAD[2v] holds bits 0-3 of the byte v as four byte lanes (one
 * lane a bit, 0 or 1), SPREAD[2v + 1] bits 4-7, so adding them counts eight positions at once.
 */
const SPREAD = new Uint32Array(512);
for (let v = 0; v < 256; v++)
  for (let k = 0; k < 8; k++) if (v & (1 << k)) SPREAD[2 * v + (k >> 2)] |= 1 << (8 * (k & 3));
/** Lanes hold up to 255: the packed counts are moved to the totals at least this often. */
const LANE_MAX = 255;

/** Adds the 32 bits of `x` to the packed counters `lanes[base .. base + 8)` (four bytes, two words each). */
function addBits(lanes: Uint32Array, base: number, x: number): void {
  for (let j = 0; j < 4; j++) {
    const v = (x >>> (8 * j)) & 0xff;
    lanes[base + 2 * j] += SPREAD[2 * v];
    lanes[base + 2 * j + 1] += SPREAD[2 * v + 1];
  }
}

/** Moves the packed counters into `set` (64 positions) and clears them. */
function unpack(lanes: Uint32Array, set: Int32Array): void {
  for (let w = 0; w < 16; w++) {
    const word = lanes[w];
    for (let k = 0; k < 4; k++) set[4 * w + k] += (word >>> (8 * k)) & 0xff;
    lanes[w] = 0;
  }
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Whether each code unit of the Basic Multilingual Plane is a letter or digit: 0 not known yet, 1 yes, 2 no. */
const bmpWord = new Uint8Array(0x10000);

function isWordChar(cp: number): boolean {
  if (cp > 0xffff) return WORD_CHAR.test(String.fromCodePoint(cp));
  let known = bmpWord[cp];
  if (known === 0) bmpWord[cp] = known = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
  return known === 1;
}

/**
 * The words of `s` (runs of letters and digits, by code point, as `split(/[^\p{L}\p{N}]+/u)` finds them),
 * as start and end offsets, so no string is made per word.
 */
function wordBounds(s: string): number[] {
  const bounds: number[] = [];
  let start = -1;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (isWordChar(cp)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      bounds.push(start, i);
      start = -1;
    }
    i += width;
  }
  if (start >= 0) bounds.push(start, s.length);
  return bounds;
}

/**
 * 64-bit SimHash of the description's word 3-shingles, as 16 hex digits; near-identical texts differ in
 * few bits. A shingle's 64 bits are FNV-1a (32 bits) of "w1 w2 w3" (UTF-16 units) under two seeds, the
 * missing words of a text under three words empty; bit b of the signature is set where more shingles
 * have it set than not. Signatures are stored (desc_sig): this definition may never change.
 */
export function simhash(text: string): string {
  // Case-folded words; accents and punctuation do not matter for telling copies apart.
  const s = text.toLowerCase();
  const w = wordBounds(s);
  const words = w.length / 2;
  // The set bits counted per position, over each shingle's units in place.
  const set = new Int32Array(64);
  const lanes = new Uint32Array(16);
  const n = Math.max(1, words - 2);
  for (let i = 0; i < n; i++) {
    let lo = SEED_LO;
    let hi = SEED_HI;
    for (let k = 0; k < 3; k++) {
      if (k > 0) {
        lo = Math.imul(lo ^ SPACE, FNV_PRIME);
        hi = Math.imul(hi ^ SPACE, FNV_PRIME);
      }
      if (i + k < words) {
        lo = fnvStep(lo, s, w[2 * (i + k)], w[2 * (i + k) + 1]);
        hi = fnvStep(hi, s, w[2 * (i + k)], w[2 * (i + k) + 1]);
      }
    }
    addBits(lanes, 0, lo);
    addBits(lanes, 8, hi);
    if ((i + 1) % LANE_MAX === 0) unpack(lanes, set);
  }
  unpack(lanes, set);
  let hex = '';
  for (let nib = 0; nib < 16; nib++) {
    let v = 0;
    for (let k = 0; k < 4; k++) if (2 * set[nib * 4 + k] > n) v |= 1 << k;
    hex += v.toString(16);
  }
  return hex;
}

export function hammingHex(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    let x = Number.parseInt(a[i], 16) ^ Number.parseInt(b[i], 16);
    while (x) {
      d += x & 1;
      x >>= 1;
    }
  }
  return d;
}

function iso(s: string | undefined | null): string | null {
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The values of the tracked fields, compared to find `modified_fields` (the description by its digest). */
function trackedValues(rec: PostingRecord, e: EnrichedPosting): Tracked {
  return {
    title: rec.title,
    organization_name: rec.company.name,
    locations: e.location.raw,
    countries: e.location.countries,
    employment_type: e.employment_type,
    work_arrangement: e.work_arrangement,
    seniority: e.seniority,
    salary_min: e.salary?.min ?? null,
    salary_max: e.salary?.max ?? null,
    salary_currency: e.salary?.currency ?? null,
    salary_unit: e.salary?.unit ?? null,
    apply_url: rec.apply_url ?? rec.url,
    url: rec.url,
    remote: e.location.remote,
    department: e.department,
    description: createHash('sha256').update(e.description_html).digest('base64url'),
  };
}

/** The employer as the job shows it when it resolves to no profile: the minimal fallback object. */
function companyFallback(rec: PostingRecord): Record<string, unknown> {
  const fallback: Record<string, unknown> = { name: rec.company.name };
  if (rec.company.domain) fallback.domain = rec.company.domain;
  if (rec.company.website) fallback.website = rec.company.website;
  if (rec.company.logo) fallback.logo = rec.company.logo;
  return fallback;
}

/** The public fields in output order, without the lifecycle timestamps; `company` is filled at read time. */
function publicFields(rec: PostingRecord, e: EnrichedPosting, source: SourceInfo): Record<string, unknown> {
  return {
    id: rec.id,
    title: e.title,
    company: null,
    location: e.location,
    employment_type: e.employment_type,
    work_arrangement: e.work_arrangement,
    office_days: null,
    visa_sponsorship: e.visa_sponsorship,
    hiring_manager: null,
    remote_location: e.remote_location,
    department: e.department,
    team: rec.team ?? null,
    requisition_id: rec.requisition_id ?? null,
    seniority: e.seniority,
    experience_level: e.experience_level,
    salary: e.salary,
    working_hours: e.working_hours,
    skills: e.skills,
    keywords: e.keywords,
    taxonomies: e.taxonomies,
    education_requirements: e.education_requirements,
    job_language: e.job_language,
    requirements_summary: e.requirements_summary,
    core_responsibilities: e.core_responsibilities,
    benefits: e.benefits,
    apply_url: rec.apply_url ?? rec.url,
    url: rec.url,
    source: source.slug,
    source_type: source.type,
    source_domain: source.domain,
  };
}

/** The keys copies of one job share: employer, title words and place (folding), employer and title (collapse). */
function matchKeys(rec: PostingRecord, e: EnrichedPosting, companySlug: string | null) {
  // The place of a copy: its countries and cities, whatever their spelling. A remote role is matched by
  // continent, since boards often drop the list of countries it is open to.
  const remoteKey = `remote|${[...e.continents].sort().join(',')}`;
  const placeKey = `${[...e.country_codes].sort().join(',')}|${[...e.city_keys].sort().join(',')}`;
  const locKey = e.location.remote ? remoteKey : placeKey;
  // The same posting read as remote by one source and as on-site by another (Ashby's TELECOMMUTE page
  // and a board's copy with the office city): a remote posting that names its places also has the key
  // of those places, for folding only. (Not the other way: an on-site job and a remote one of the same
  // continent are two openings.)
  const altKey = e.location.remote && e.country_codes.length ? placeKey : null;
  const places = [
    ...e.city_keys,
    ...(e.location.cities ?? []),
    ...(e.location.regions ?? []),
    ...e.location.countries,
  ];
  const employerTitle = `${companySlug ?? nameKey(rec.company.name)}|${titleKey(rec.title, places)}`;
  return {
    collapse_key: digest(`${companySlug ?? `~${norm(rec.company.name)}`}|${norm(e.title)}`),
    dedupe_key: digest(`${employerTitle}|${locKey}`),
    alt_dedupe_key: altKey === null ? null : digest(`${employerTitle}|${altKey}`),
    canonical_url: digest(canonicalUrl(rec.canonical_url ?? rec.url)),
  };
}

export function buildContent(
  rec: PostingRecord,
  e: EnrichedPosting,
  source: SourceInfo,
  companySlug: string | null,
  descSig: string = simhash(e.description_text),
): JobContent {
  const salary = e.salary;
  // The alternative key is not stored: it only finds candidates while folding a batch.
  const { alt_dedupe_key, ...keys } = matchKeys(rec, e, companySlug);
  const content: Omit<JobContent, 'content_hash' | 'alt_dedupe_key'> = {
    id: rec.id,
    source: source.slug,
    source_type: source.type,
    company_slug: companySlug,
    org_name: rec.company.name,
    org_key: rec.company.name.toLowerCase(),
    title_raw: rec.title,
    ...keys,
    desc_sig: descSig,
    posted_at: iso(rec.posted_at),
    expires_at: iso(rec.expires_at),
    gone: rec.gone ?? false,
    board: rec.board ?? null,
    // The filter columns.
    country_codes: e.country_codes,
    cities: (e.location.cities ?? []).map((c) => c.toLowerCase()),
    regions: (e.location.regions ?? []).map((r) => r.toLowerCase()),
    continents: e.continents,
    remote: e.location.remote,
    work_arrangement: e.work_arrangement,
    employment_type: e.employment_type,
    seniority: e.seniority,
    experience_level: e.experience_level,
    education: e.education_requirements,
    taxonomies: e.taxonomies,
    skills: e.skills,
    language: e.job_language,
    visa_sponsorship: e.visa_sponsorship === true,
    has_salary: salary !== null,
    salary_annual_min: salary ? (salary.annual_min ?? salary.annual_max) : null,
    salary_annual_max: salary ? (salary.annual_max ?? salary.annual_min) : null,
    salary_currency: salary?.currency ?? null,
    tracked: trackedValues(rec, e),
    company_fallback: JSON.stringify(companyFallback(rec)),
    desc_text: JSON.stringify(e.description_text),
    desc_html: JSON.stringify(e.description_html),
    pub: publicFields(rec, e, source),
  };
  // Everything stored is hashed (tracked values, the company fallback, the description, the filter
  // columns), so a re-load is "unchanged" only when it would write exactly the same row.
  const content_hash = createHash('sha256').update(JSON.stringify(content)).digest('base64url');
  return { ...content, content_hash, alt_dedupe_key };
}

/** Names of the tracked fields whose values differ. */
export function changedFields(before: Tracked, after: Tracked): TrackedField[] {
  return TRACKED_FIELDS.filter((f) => JSON.stringify(before[f] ?? null) !== JSON.stringify(after[f] ?? null));
}

/** The public JSON with its lifecycle timestamps. */
export function renderDoc(c: JobContent, l: Lifecycle): string {
  return JSON.stringify({
    ...c.pub,
    posted_at: l.posted_at,
    expires_at: c.expires_at,
    modified_at: l.modified_at ?? l.created_at,
    modified_fields: l.modified_fields,
    created_at: l.created_at,
    updated_at: l.updated_at,
  });
}
