// Helpers shared by the adapters: tolerant readers for loosely typed payloads, dates, enums, salary.
import { EMPLOYMENT_TYPES } from '../../enums.ts';
import { decodeHTML } from 'entities';
import { countryName, toCountryCode } from '../../geo/countries.ts';
import type { CompanyRef, LocationInput, PostingRecord, SalaryInput } from '../../model/record.ts';
import { type AdapterContext, AdapterFormatError, type AdapterResult } from './types.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON body, or an AdapterFormatError when the body is not JSON (an HTML page, an empty answer). */
export function parseJson(format: string, payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    const head = payload.trimStart().slice(0, 15).toLowerCase();
    const what = head.startsWith('<') ? 'an HTML/XML document' : payload.trim() === '' ? 'empty' : 'not JSON';
    throw new AdapterFormatError(format, `payload is ${what}`);
  }
}

/** A trimmed non-empty string; numbers are stringified; anything else is undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s === '' ? undefined : s;
}

/** Sources give arrays where one value is expected (and vice versa). */
export function first<T = unknown>(v: unknown): T | undefined {
  return (Array.isArray(v) ? v[0] : v) as T | undefined;
}

export function asArray(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

export function uniq<T>(xs: (T | undefined | null)[]): T[] {
  const out: T[] = [];
  for (const x of xs) if (x !== undefined && x !== null && !out.includes(x)) out.push(x);
  return out;
}

export function decodeOnce(s: string): string {
  return decodeHTML(s);
}

/** Entity-escaped HTML ("&lt;p&gt;…") is unescaped once; real HTML is left alone. */
export function unescapeIfEscaped(html: string): string {
  if (/<[a-z!/]/i.test(html)) return html;
  return /&(lt|gt|amp|#\d+|#x[0-9a-f]+);/i.test(html) ? decodeHTML(html) : html;
}

export function tokenOf(board: string): string {
  const i = board.indexOf('/');
  return i < 0 ? board : board.slice(i + 1);
}

const MS = /^\d{12,14}$/;
const SECONDS = /^\d{9,11}$/;

/**
 * ISO 8601 UTC with milliseconds, from what sources send: epoch milliseconds or seconds, ISO with
 * an offset (also `+0200`), `2026-05-28 20:36:05 UTC`, or a bare date (midnight UTC).
 */
export function toIsoUtc(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return fromEpoch(v);
  const s = str(v);
  if (!s) return undefined;
  if (MS.test(s) || SECONDS.test(s)) return fromEpoch(Number(s));
  let t = s;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) t += 'T00:00:00Z';
  t = t.replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2');
  t = t.replace(/\s*(UTC|GMT|Z)$/i, 'Z');
  t = t.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  // A date-time without any zone is taken as UTC rather than the host's zone.
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) t += 'Z';
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function fromEpoch(n: number): string | undefined {
  const ms = n < 1e11 ? n * 1000 : n;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function startOfUtcDay(now: Date, minusDays = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - minusDays));
  return d.toISOString();
}

/** Workday's "Posted Today", "Posted Yesterday", "Posted 3 Days Ago", "Posted 30+ Days Ago". */
export function relativePosted(text: unknown, now: Date): string | undefined {
  const s = str(text)?.toLowerCase();
  if (!s) return undefined;
  if (/\btoday\b/.test(s)) return startOfUtcDay(now);
  if (/\byesterday\b/.test(s)) return startOfUtcDay(now, 1);
  const m = /(\d+)\+?\s*days?\s+ago/.exec(s);
  if (m) return startOfUtcDay(now, Number(m[1]));
  return undefined;
}

const EMPLOYMENT: [RegExp, string][] = [
  [/\bfull[\s_-]?time\b|\bfulltime/, 'FULL_TIME'],
  [/\bpart[\s_-]?time\b|\bparttime/, 'PART_TIME'],
  [/\bcontract(or|ors|s)?\b|\bfreelance/, 'CONTRACTOR'],
  [/\btemp(orary)?\b|fixed[\s_-]?term|\bseasonal\b/, 'TEMPORARY'],
  [/\bintern(ship)?s?\b|\btrainee(ship)?\b|\bapprentice(ship)?\b|working[\s_-]student|werkstudent/, 'INTERN'],
  [/\bper[\s_-]?diem\b/, 'PER_DIEM'],
  [/\bvolunteer/, 'VOLUNTEER'],
];
const ENUM = new Set<string>(EMPLOYMENT_TYPES);

/** Employment-type labels ("Full-time", "FullTime", "fulltime_permanent", "CONTRACTOR") to the enum. */
export function employmentTypes(values: unknown): string[] | undefined {
  const out: string[] = [];
  for (const v of asArray(values)) {
    const s = str(v);
    if (!s) continue;
    if (ENUM.has(s.toUpperCase())) {
      out.push(s.toUpperCase());
      continue;
    }
    const lower = s.toLowerCase().replace(/_/g, ' ');
    const hits = EMPLOYMENT.filter(([re]) => re.test(lower)).map(([, t]) => t);
    // "permanent" alone says nothing about hours; other unknown labels are OTHER.
    if (hits.length === 0 && !/^(permanent|regular)$/.test(lower)) hits.push('OTHER');
    out.push(...hits);
  }
  const u = uniq(out);
  return u.length ? u : undefined;
}

/** Full English country name from an ISO-2 code or a name ("USA", "de"); undefined when unknown. */
export function country(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  const code = toCountryCode(s);
  return code ? countryName(code) : undefined;
}

/** A number from 120000, "120000", "120,000", "120.000", "120k"; undefined otherwise. */
export function amount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const s = str(v);
  if (!s) return undefined;
  const m = /^[^\d-]*(\d[\d.,\s]*)(k)?\b/i.exec(s.replace(/\u00a0/g, ' '));
  if (!m) return undefined;
  let digits = m[1].replace(/\s/g, '');
  // "120.000" and "120,000" are grouping; a single separator before 1-2 digits is a decimal point.
  if (/^\d{1,3}([.,]\d{3})+$/.test(digits)) digits = digits.replace(/[.,]/g, '');
  else digits = digits.replace(/,(?=\d{1,2}$)/, '.').replace(/,/g, '');
  const n = Number(digits);
  if (!Number.isFinite(n)) return undefined;
  return m[2] ? n * 1000 : n;
}

/** Salary period words to YEAR, MONTH, WEEK, DAY or HOUR. */
export function salaryUnit(v: unknown): string | undefined {
  const s = str(v)?.toLowerCase();
  if (!s) return undefined;
  if (/hour/.test(s)) return 'HOUR';
  if (/day|daily/.test(s)) return 'DAY';
  if (/week/.test(s)) return 'WEEK';
  if (/month/.test(s)) return 'MONTH';
  if (/year|annual|annum/.test(s)) return 'YEAR';
  return undefined;
}

/** Drops undefined keys, empty arrays and empty objects so records compare and serialise cleanly. */
export function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isObj(v)) {
      const c = compact(v);
      if (Object.keys(c).length === 0) continue;
      out[k] = c;
      continue;
    }
    out[k] = v;
  }
  return out as T;
}

export function salary(s: SalaryInput): SalaryInput | undefined {
  const c = compact(s);
  return c.min === undefined && c.max === undefined && c.text === undefined ? undefined : c;
}

export function companyOf(
  ctx: AdapterContext,
  payloadName?: string,
  extra: Partial<CompanyRef> = {},
): CompanyRef {
  const name = payloadName ?? ctx.company?.name ?? tokenOf(ctx.board);
  return compact({ name, slug: ctx.company?.slug, domain: ctx.company?.domain, ...compact(extra) });
}

export function location(l: LocationInput): LocationInput | undefined {
  const c = compact({
    ...l,
    raw: l.raw ? uniq(l.raw) : undefined,
    countries: l.countries ? uniq(l.countries) : undefined,
    cities: l.cities ? uniq(l.cities) : undefined,
    regions: l.regions ? uniq(l.regions) : undefined,
  });
  return Object.keys(c).length ? c : undefined;
}

/** Joins non-empty parts: "Berlin, Berlin, Germany". */
export function joinPlace(...parts: unknown[]): string | undefined {
  const ps = uniq(parts.map(str));
  return ps.length ? ps.join(', ') : undefined;
}

/** A posting is malformed: rejected with this reason while the rest of the payload loads. */
export class Reject extends Error {}

/**
 * Maps each item, collecting rejections; `null` from `map` means deliberately dropped.
 * A thrown error rejects only that item.
 */
export function mapItems(
  items: unknown[],
  idOf: (item: unknown) => string | undefined,
  map: (item: Obj, nativeId: string) => PostingRecord | null,
): AdapterResult {
  const res: AdapterResult = { postings: [], rejected: [], dropped: 0 };
  // Native id → index of its posting (-1 when dropped).
  const seen = new Map<string, number>();
  for (const item of items) {
    let id: string | undefined;
    try {
      id = isObj(item) ? idOf(item) : undefined;
      if (!isObj(item)) throw new Reject('posting is not an object');
      if (!id) throw new Reject('missing id');
      const p = map(item, id);
      const at = seen.get(id);
      if (at !== undefined) {
        // The same posting listed again (Workable repeats a job once per country): its places join the first.
        if (at >= 0 && p !== null) res.postings[at] = mergeRows(res.postings[at], compact(p));
        continue;
      }
      seen.set(id, p === null ? -1 : res.postings.length);
      if (p === null) res.dropped = (res.dropped ?? 0) + 1;
      else res.postings.push(compact(p));
    } catch (err) {
      const reason = err instanceof Reject ? err.message : `unreadable posting: ${(err as Error).message}`;
      res.rejected.push(id ? { native_id: id, reason } : { reason });
    }
  }
  return res;
}

/** Two rows of one posting: the first row's fields, with the places and remote countries of both. */
export function mergeRows(a: PostingRecord, b: PostingRecord): PostingRecord {
  const la = a.location ?? {};
  const lb = b.location ?? {};
  const both = <T>(x: T[] | null | undefined, y: T[] | null | undefined) =>
    x || y ? uniq([...(x ?? []), ...(y ?? [])]) : undefined;
  return compact({
    ...a,
    location: location({
      ...la,
      raw: both(la.raw, lb.raw),
      countries: both(la.countries, lb.countries),
      cities: both(la.cities, lb.cities),
      regions: both(la.regions, lb.regions),
      remote: la.remote ?? lb.remote,
    }),
    remote_location: both(a.remote_location, b.remote_location),
  });
}

export function requireTitle(v: unknown): string {
  const t = str(v);
  if (!t) throw new Reject('missing title');
  return t;
}

/** An absolute http(s) URL, or undefined. */
export function httpUrl(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function requireUrl(v: unknown, what = 'url'): string {
  const u = httpUrl(v);
  if (!u) throw new Reject(`missing or invalid ${what}`);
  return u;
}

/** The site's domain from a URL ("https://www.acme.example/about" → "acme.example"). */
export function domainOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '').toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** Work arrangement from flags; undefined when the source says nothing. */
export function arrangement(flags: {
  remote?: boolean;
  hybrid?: boolean;
  onsite?: boolean;
}): string | undefined {
  const n = [flags.remote, flags.hybrid, flags.onsite].filter(Boolean).length;
  if (flags.hybrid || n > 1) return 'Hybrid';
  if (flags.remote) return 'Remote';
  if (flags.onsite) return 'On-site';
  return undefined;
}

/** Free-text workplace labels ("on-site", "onsite", "OnSite", "Remote", "Hybrid") to the enum. */
export function workplace(v: unknown): string | undefined {
  const s = str(v)
    ?.toLowerCase()
    .replace(/[\s_-]/g, '');
  if (!s) return undefined;
  if (s === 'remote' || s === 'fullyremote' || s === 'telecommute') return 'Remote';
  if (s === 'hybrid' || s === 'flexible') return 'Hybrid';
  if (s === 'onsite' || s === 'inoffice' || s === 'office') return 'On-site';
  return undefined;
}

/** Several pay tiers: one is kept as is, several give the overall range (same currency and unit only). */
export function combineTiers(tiers: SalaryInput[], text?: string): SalaryInput | undefined {
  const ts = tiers.filter((t) => t.min !== undefined || t.max !== undefined);
  if (ts.length === 0) return text ? { text } : undefined;
  if (ts.length === 1) return salary({ ...ts[0], text: text ?? ts[0].text });
  const same = ts.every((t) => t.currency === ts[0].currency && t.unit === ts[0].unit);
  if (!same) return text ? { text } : undefined;
  const mins = ts.map((t) => t.min ?? t.max!);
  const maxs = ts.map((t) => t.max ?? t.min!);
  return salary({
    min: Math.min(...mins),
    max: Math.max(...maxs),
    currency: ts[0].currency,
    unit: ts[0].unit,
    text,
  });
}

/** LinkedIn-style seniority labels and source codes to the seniority enum. */
export function seniority(v: unknown): string | undefined {
  const s = str(v)?.toLowerCase().replace(/[_-]/g, ' ');
  if (!s || /not applicable|^n\/?a$/.test(s)) return undefined;
  if (/intern|student/.test(s)) return 'Internship';
  if (/entry|junior|graduate/.test(s)) return 'Entry level';
  if (/associate/.test(s)) return 'Associate';
  if (/mid|senior|experienced/.test(s)) return 'Mid-Senior level';
  if (/director/.test(s)) return 'Director';
  if (/executive|management|manager/.test(s)) return 'Management';
  return undefined;
}

/** Degree labels ("Bachelor's Degree", "bachelor_degree", "Master's") to the education enum. */
export function education(v: unknown): string[] | undefined {
  const out: string[] = [];
  for (const x of asArray(v)) {
    const s = str(x)?.toLowerCase().replace(/_/g, ' ');
    if (!s) continue;
    if (/high school|secondary/.test(s)) out.push('high school');
    else if (/associate/.test(s)) out.push('associate degree');
    else if (/bachelor|grado|licenciatura|licence|undergrad/.test(s)) out.push('bachelor degree');
    else if (/master|doctor|phd|postgraduate|mba/.test(s)) out.push('postgraduate degree');
    else if (/certif|vocational|professional/.test(s)) out.push('professional certificate');
  }
  const u = uniq(out);
  return u.length ? u : undefined;
}

/** Years of experience (lower bound) to the experience enum. */
export function experienceFromYears(years: number | undefined): string | undefined {
  if (years === undefined || !Number.isFinite(years) || years < 0) return undefined;
  if (years < 2) return '0-2';
  if (years < 5) return '2-5';
  if (years < 10) return '5-10';
  return '10+';
}
