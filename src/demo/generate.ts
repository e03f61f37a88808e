// The demo data generator: a deterministic, streaming source of canonical JSON Lines records.
//
// Every posting is a pure function of (seed, index): nothing about postings is kept in memory, so 5M jobs
// need no more memory than 50k. Only the compact employer list is held (jobs/20, at most 200k). The rounds
// recompute a posting's state from its index and the per-round decisions, which are hashes of
// (seed, index, round), instead of remembering what was emitted.
import type { CanonicalLine, CompanyRecord, PostingRecord } from '../model/record.ts';
import { KNOWN_SOURCES } from '../model/sources.ts';
import {
  companyCount,
  type Employer,
  makeCompany,
  makeGhostEmployer,
  NameRegistry,
  shortCompanyName,
  zipfPicker,
} from './companies.ts';
import {
  type City,
  COUNTRY_BY_CODE,
  type CountryInfo,
  countryPicker,
  countryZones,
  pickCity,
  rawLocation,
} from './geo.ts';
import { AREAS, DEPARTMENTS, type Family, OCCUPATIONS, type Occupation } from './occupations.ts';
import { agencyRepost, respelledCopy } from './near-duplicates.ts';
import { hash32, Rng, scramble32, unit, Weighted } from './prng.ts';
import { BENEFITS, description } from './text.ts';

export interface GenerateOptions {
  /** Posting rows in the base snapshot (originals plus syndicated copies). */
  jobs: number;
  seed: number;
  /** Number of change rounds after the base snapshot. The base snapshot is dated `rounds` hours before `now`. */
  rounds?: number;
  /** The time of the last round (of the base snapshot when there are no rounds). Default: now, to the hour. */
  now?: Date;
  /**
   * Adds the near-duplicates of the folding benchmark to the base snapshot: agency re-posts under
   * reworded titles, copies with re-spelled locations and no link to the original, and siblings (the
   * same text for another city: different jobs). Off by default, so the demo data stays as it was.
   */
  nearDuplicates?: boolean;
}

/** What a generated posting is: an original, one of its copies, or a sibling (a different job). */
export type PostingKind = 'original' | 'syndicated' | 'agency' | 'respelled' | 'sibling';

/** Ground truth of one posting: the id of the original of its job (its own id for originals and siblings). */
export interface PostingLabel {
  id: string;
  job: string;
  kind: PostingKind;
}

// Near-duplicates per original (with `nearDuplicates`).
const NEAR = { agency: 0.05, respelled: 0.05, sibling: 0.03 };
const NEAR_KINDS = ['agency', 'respelled', 'sibling'] as const;

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Time between rounds: the index refreshes hourly. */
const ROUND_INTERVAL_MS = HOUR;
/** Spread of posting dates in the base snapshot. */
const SPAN_DAYS = 182;

// Syndication: 0–3 copies per original on distinct boards; E[copies] ≈ 0.425, so ≈30% of rows are copies.
const COPY_COUNTS = new Weighted([0, 1, 2, 3], [0.71, 0.18, 0.085, 0.025]);
const BOARDS = KNOWN_SOURCES.filter((s) => s.type !== 'ats');
const SOURCE = new Map(KNOWN_SOURCES.map((s) => [s.slug, s]));
/** Copy numbers 0–2 are base copies; round r adds copy number 3 + r. */
const ROUND_COPY_BASE = 3;

// Per-round rates, as shares of the originals alive at the round.
const RATE = {
  newPostings: 0.015,
  tracked: 0.02,
  untracked: 0.01,
  unchanged: 0.008,
  expire: 0.008,
  gone: 0.008,
  newCopy: 0.005,
};
/** Share of base originals whose expires_at is already in the past. */
const BASE_EXPIRED = 0.03;

const FAMILY_OCCS = new Map<Family, Occupation[]>();
for (const o of OCCUPATIONS) {
  const list = FAMILY_OCCS.get(o.family) ?? [];
  list.push(o);
  FAMILY_OCCS.set(o.family, list);
}
const occPickers = new Map<string, Weighted<Occupation>>();
function occupationPicker(family: Family, lang: string): Weighted<Occupation> | null {
  const key = `${family}/${lang}`;
  let p = occPickers.get(key);
  if (p === undefined) {
    const list = (FAMILY_OCCS.get(family) ?? []).filter(
      (o) => lang === 'en' || o[lang as 'de' | 'fr' | 'es'],
    );
    if (!list.length) return null;
    p = new Weighted(
      list,
      list.map((o) => o.weight),
    );
    occPickers.set(key, p);
  }
  return p;
}
// Families weighted by how much each is posted overall, so a hospital still posts some IT jobs.
const FAMILY_WEIGHT = new Map<Family, number>();
for (const o of OCCUPATIONS) FAMILY_WEIGHT.set(o.family, (FAMILY_WEIGHT.get(o.family) ?? 0) + o.weight);
const familyPicker = new Weighted([...FAMILY_WEIGHT.keys()], [...FAMILY_WEIGHT.values()]);

const DESK: Set<Family> = new Set([
  'software',
  'data',
  'it',
  'design',
  'product',
  'marketing',
  'sales',
  'support',
  'finance',
  'hr',
  'legal',
  'consulting',
]);
const EU_REMOTE = ['DE', 'NL', 'ES', 'PT', 'PL', 'FR', 'IE', 'IT', 'AT', 'BE', 'SE', 'DK', 'FI', 'CZ', 'RO'];
const HOURLY_COUNTRIES = new Set(['US', 'CA', 'AU', 'GB', 'NZ', 'IE']);
const BIG_UNIT_CURRENCIES = new Set([
  'INR',
  'JPY',
  'KRW',
  'COP',
  'ARS',
  'CLP',
  'NGN',
  'KES',
  'PHP',
  'CZK',
  'EGP',
  'TRY',
  'MXN',
]);
const TEAMS = [
  'Core',
  'Growth',
  'Platform',
  'Enterprise',
  'Operations',
  'Central',
  'North America',
  'EMEA',
  'APAC',
  'Night Shift',
  'Weekend',
];

interface Level {
  word: string;
  seniority: string;
  exp: string;
  pay: number;
  weight: number;
}
const LEVELS: Level[] = [
  { word: 'intern', seniority: 'Internship', exp: '0-2', pay: 0.45, weight: 4 },
  { word: 'junior', seniority: 'Entry level', exp: '0-2', pay: 0.7, weight: 10 },
  { word: 'associate', seniority: 'Associate', exp: '0-2', pay: 0.8, weight: 6 },
  { word: '', seniority: 'Mid-Senior level', exp: '2-5', pay: 1, weight: 40 },
  { word: 'senior', seniority: 'Mid-Senior level', exp: '5-10', pay: 1.25, weight: 25 },
  { word: 'staff', seniority: 'Mid-Senior level', exp: '10+', pay: 1.5, weight: 5 },
  { word: 'lead', seniority: 'Mid-Senior level', exp: '5-10', pay: 1.35, weight: 5 },
  { word: 'head', seniority: 'Director', exp: '10+', pay: 1.8, weight: 3 },
  { word: 'vp', seniority: 'Management', exp: '10+', pay: 2.3, weight: 1 },
];
const levelPicker = new Weighted(
  LEVELS,
  LEVELS.map((l) => l.weight),
);
const DE_SENIOR: Record<string, string> = {
  junior: 'Junior ',
  senior: 'Senior ',
  lead: 'Lead ',
  staff: 'Senior ',
};

/** What a posting is made of, beyond the record: needed to build its copies and to modify it. */
interface Original {
  index: number;
  rec: PostingRecord;
  employer: Employer;
  occupation: Occupation;
  country: CountryInfo;
  copies: number;
  /** Boards of copy numbers 0..2. */
  boards: string[];
  /** The cities of the location (none for most remote roles). */
  cities: City[];
}

function isoMs(t: number): string {
  return new Date(t).toISOString();
}

function roundTo(x: number, step: number): number {
  return Math.max(step, Math.round(x / step) * step);
}

export class DemoDataset {
  readonly jobs: number;
  readonly seed: number;
  readonly rounds: number;
  readonly now: number;
  /** Time of the base snapshot. */
  readonly baseTime: number;
  readonly companyTotal: number;
  readonly nearDuplicates: boolean;
  private readonly ghostTotal: number;
  private employers: Employer[] | null = null;
  private zipf: Weighted<number> | null = null;
  /** Base layout: originals 0..lastOriginal; the last one may have fewer copies than planned. */
  private layout: { lastOriginal: number; lastCopies: number; newPerRound: number } | null = null;

  constructor(opts: GenerateOptions) {
    if (!Number.isInteger(opts.jobs) || opts.jobs < 1) throw new Error('jobs must be a positive integer');
    this.jobs = opts.jobs;
    this.seed = opts.seed >>> 0;
    this.rounds = opts.rounds ?? 0;
    const now = opts.now?.getTime() ?? Math.floor(Date.now() / HOUR) * HOUR;
    this.now = now;
    this.baseTime = now - this.rounds * ROUND_INTERVAL_MS;
    this.companyTotal = companyCount(opts.jobs);
    this.ghostTotal = Math.max(10, Math.round(this.companyTotal / 8));
    this.nearDuplicates = opts.nearDuplicates ?? false;
  }

  /** Source lines, then company lines, then postings. */
  *base(): Generator<CanonicalLine> {
    for (const { line } of this.labelled()) yield line;
  }

  /** The base snapshot with the ground truth of every posting: which job it is a copy of, and how. */
  *labelled(): Generator<{ line: CanonicalLine; label?: PostingLabel }> {
    for (const s of KNOWN_SOURCES) yield { line: { kind: 'source', ...s } };
    const employers: Employer[] = [];
    for (const rec of this.buildCompanies(employers)) yield { line: { kind: 'company', ...rec } };
    this.employers = employers;
    let rows = 0;
    const item = (rec: PostingRecord, job: string, kind: PostingKind) => ({
      line: { kind: 'posting' as const, ...rec },
      label: { id: rec.id, job, kind },
    });
    for (let i = 0; rows < this.jobs; i++) {
      const o = this.original(i);
      const job = o.rec.id;
      yield item(o.rec, job, 'original');
      rows++;
      for (let c = 0; c < o.copies && rows < this.jobs; c++, rows++)
        yield item(this.copy(o, c), job, 'syndicated');
      if (!this.nearDuplicates) continue;
      for (const [kind, rec] of this.nearCopies(o)) {
        if (rows >= this.jobs) break;
        yield item(rec, kind === 'sibling' ? rec.id : job, kind);
        rows++;
      }
    }
  }

  /** Round r (1-based): changed, expired, gone and new postings, as of `baseTime + r` hours. */
  *round(r: number): Generator<CanonicalLine> {
    if (!Number.isInteger(r) || r < 1) throw new Error('round must be a positive integer');
    this.ensureEmployers();
    const { lastOriginal, newPerRound } = this.baseLayout();
    const at = this.baseTime + r * ROUND_INTERVAL_MS;
    // Every original that exists before this round: base ones and those born in earlier rounds.
    const existing = lastOriginal + 1 + (r - 1) * newPerRound;
    for (let i = 0; i < existing; i++) {
      const born = this.birthRound(i);
      if (this.baseExpired(i) && born === 0) continue;
      const death = this.deathRound(i, born);
      if (death.round < r) continue;
      if (death.round === r) {
        const o = this.stateAt(i, r - 1);
        const copies = this.copyNumbers(o, r - 1);
        if (death.kind === 'gone') {
          yield { kind: 'posting', ...o.rec, gone: true };
          for (const c of copies) yield { kind: 'posting', ...this.copy(o, c), gone: true };
        } else {
          o.rec.expires_at = isoMs(at - Rng.of(this.seed, 0xe1, i, r).int(1, 59) * 60_000);
          yield { kind: 'posting', ...o.rec };
          for (const c of copies) yield { kind: 'posting', ...this.copy(o, c) };
        }
        continue;
      }
      const change = this.changeAt(i, r);
      const newCopy = unit(this.seed, 0xd3, i, r) < RATE.newCopy;
      if (change === null && !newCopy) continue;
      const o = this.stateAt(i, r);
      if (change !== null) {
        yield { kind: 'posting', ...o.rec };
        for (const c of this.copyNumbers(o, r - 1)) yield { kind: 'posting', ...this.copy(o, c) };
      }
      if (newCopy) yield { kind: 'posting', ...this.copy(o, ROUND_COPY_BASE + r) };
    }
    for (let k = 0; k < newPerRound; k++) {
      const o = this.original(existing + k);
      yield { kind: 'posting', ...o.rec };
      for (let c = 0; c < o.copies; c++) yield { kind: 'posting', ...this.copy(o, c) };
    }
  }

  // --- companies -------------------------------------------------------------------------------------

  private *buildCompanies(out: Employer[]): Generator<CompanyRecord> {
    const names = new NameRegistry();
    const now = new Date(this.baseTime);
    for (let k = 0; k < this.companyTotal; k++) {
      const c = makeCompany(this.seed, k, this.companyTotal, names, now);
      out.push(c.employer);
      yield c.record;
    }
  }

  private ensureEmployers(): void {
    if (this.employers) return;
    const employers: Employer[] = [];
    for (const _ of this.buildCompanies(employers));
    this.employers = employers;
  }

  private employerFor(rng: Rng): Employer {
    // ~3% of postings come from employers with no profile at all.
    if (rng.chance(0.03)) return makeGhostEmployer(this.seed, rng.int(0, this.ghostTotal - 1));
    this.zipf ??= zipfPicker(this.companyTotal);
    return this.employers![this.zipf.pick(rng)];
  }

  // --- layout and fates ------------------------------------------------------------------------------

  private copiesOf(i: number): number {
    return COPY_COUNTS.items[COPY_COUNTS.index(unit(this.seed, 0xc1, i))];
  }

  /** Which near-duplicates original i has (none without `nearDuplicates`). */
  private nearKinds(i: number): ('agency' | 'respelled' | 'sibling')[] {
    if (!this.nearDuplicates) return [];
    const kinds: ('agency' | 'respelled' | 'sibling')[] = [];
    if (unit(this.seed, 0xa1, i) < NEAR.agency) kinds.push('agency');
    if (unit(this.seed, 0xa2, i) < NEAR.respelled) kinds.push('respelled');
    if (unit(this.seed, 0xa3, i) < NEAR.sibling) kinds.push('sibling');
    return kinds;
  }

  private nearCount(i: number): number {
    return this.nearKinds(i).length;
  }

  /** The near-duplicates of original o, posted after it and while it is open. */
  private nearCopies(o: Original): ['agency' | 'respelled' | 'sibling', PostingRecord][] {
    const out: ['agency' | 'respelled' | 'sibling', PostingRecord][] = [];
    const native = scramble32(o.index, hash32(this.seed, 0xa4)).toString(36);
    for (const kind of this.nearKinds(o.index)) {
      const rng = Rng.of(this.seed, 0xa5, o.index, NEAR_KINDS.indexOf(kind));
      const board = rng.pick(BOARDS);
      let rec: PostingRecord;
      if (kind === 'agency') rec = agencyRepost(rng, o.rec, board, `ag${native}`);
      else if (kind === 'respelled')
        rec = respelledCopy(rng, o.rec, o.cities, board, `rs${native}`, o.employer.board);
      else rec = this.sibling(o, rng);
      out.push([kind, this.postedWhileOpen(rec, o)]);
    }
    return out;
  }

  /** The same text posted by the same employer for another city: a different job. */
  private sibling(o: Original, rng: Rng): PostingRecord {
    const orig = o.rec;
    const from = o.cities[0];
    // Another city: of the same country when it has another, else of another country.
    let country = o.country;
    let city = pickCity(rng, country);
    for (let k = 0; k < 40 && o.cities.some((c) => c.name === city.name); k++) {
      if (k >= 20) country = countryPicker.pick(rng);
      city = pickCity(rng, country);
    }
    const native = `${orig.id.slice(orig.id.indexOf(':') + 1)}${rng.int(2, 9)}`;
    const url = `https://${SOURCE.get(orig.source)!.domain}/${o.employer.board}/${native}`;
    const swap = (s: string) => (from ? s.split(from.name).join(city.name) : s);
    const rec: PostingRecord = {
      ...orig,
      id: `${orig.source}:${native}`,
      url,
      ...(orig.apply_url ? { apply_url: `${url}/apply` } : {}),
      location: {
        raw: [rawLocation(rng, city)],
        remote: false,
        countries: [country.name],
        cities: [city.name],
        regions: city.region ? [city.region] : null,
        timezones: [city.timezone],
        continent: country.continent,
      },
      work_arrangement: orig.work_arrangement === 'Remote' ? 'On-site' : orig.work_arrangement,
    };
    delete rec.remote_location;
    delete rec.requisition_id;
    if (orig.description_html !== undefined) rec.description_html = swap(orig.description_html);
    if (orig.description_text !== undefined) rec.description_text = swap(orig.description_text);
    return rec;
  }

  /** A later posting of the same job is dated after the original, before the snapshot and its expiry. */
  private postedWhileOpen(rec: PostingRecord, o: Original): PostingRecord {
    const postedOrig = Date.parse(o.rec.posted_at!);
    let last = this.baseTime - 60_000;
    if (o.rec.expires_at) last = Math.min(last, Date.parse(o.rec.expires_at) - 60_000);
    const posted = Math.max(postedOrig, Math.min(Date.parse(rec.posted_at!), last));
    return { ...rec, posted_at: isoMs(posted) };
  }

  private baseLayout(): { lastOriginal: number; lastCopies: number; newPerRound: number } {
    if (!this.layout) {
      let rows = 0;
      let i = 0;
      for (;;) {
        const c = this.copiesOf(i) + this.nearCount(i);
        if (rows + 1 + c >= this.jobs) {
          this.layout = {
            lastOriginal: i,
            lastCopies: Math.min(c, this.jobs - rows - 1),
            newPerRound: Math.max(1, Math.round((i + 1) * RATE.newPostings)),
          };
          break;
        }
        rows += 1 + c;
        i++;
      }
    }
    return this.layout;
  }

  private birthRound(i: number): number {
    const { lastOriginal, newPerRound } = this.baseLayout();
    return i <= lastOriginal ? 0 : 1 + Math.floor((i - lastOriginal - 1) / newPerRound);
  }

  private baseExpired(i: number): boolean {
    return unit(this.seed, 0xe0, i) < BASE_EXPIRED;
  }

  private deathRound(i: number, born: number): { round: number; kind: 'gone' | 'expire' | null } {
    for (let r = born + 1; r <= this.rounds; r++) {
      const u = unit(this.seed, 0xd1, i, r);
      if (u < RATE.gone) return { round: r, kind: 'gone' };
      if (u < RATE.gone + RATE.expire) return { round: r, kind: 'expire' };
    }
    return { round: Number.POSITIVE_INFINITY, kind: null };
  }

  /** The change of round r to original i: a tracked field, enrichment only, an identical re-scrape, or none. */
  private changeAt(i: number, r: number): 'tracked' | 'untracked' | 'unchanged' | null {
    if (r <= this.birthRound(i)) return null;
    const u = unit(this.seed, 0xd2, i, r);
    if (u < RATE.tracked) return 'tracked';
    if (u < RATE.tracked + RATE.untracked) return 'untracked';
    if (u < RATE.tracked + RATE.untracked + RATE.unchanged) return 'unchanged';
    return null;
  }

  /** Original i with the changes of rounds 1..r applied. */
  private stateAt(i: number, r: number): Original {
    const o = this.original(i);
    for (let k = this.birthRound(i) + 1; k <= r; k++) {
      const ch = this.changeAt(i, k);
      if (ch === 'tracked') this.modifyTracked(o, k);
      else if (ch === 'untracked') this.modifyUntracked(o, k);
    }
    return o;
  }

  /** Copy numbers of original o that exist after round r. */
  private copyNumbers(o: Original, r: number): number[] {
    const { lastOriginal, lastCopies } = this.baseLayout();
    const n = o.index === lastOriginal ? lastCopies : o.copies;
    const list = Array.from({ length: n }, (_, c) => c);
    for (let k = this.birthRound(o.index) + 1; k <= r; k++) {
      if (unit(this.seed, 0xd3, o.index, k) < RATE.newCopy) list.push(ROUND_COPY_BASE + k);
    }
    return list;
  }

  // --- postings --------------------------------------------------------------------------------------

  private nativeId(source: string, i: number, rng: Rng): string {
    const s = scramble32(i, hash32(this.seed, 0x1d, source.length));
    switch (source) {
      case 'lever':
      case 'ashby':
        return `${s.toString(16).padStart(8, '0')}-${rng.uuid().slice(9)}`;
      case 'workable':
        return `${s.toString(16).padStart(8, '0')}${rng.hex(2)}`.toUpperCase();
      case 'smartrecruiters':
        return `7440${String(s).padStart(10, '0')}`;
      case 'workday':
        return `R${String(s).padStart(10, '0')}`;
      default:
        return String(s + 1_000_000);
    }
  }

  /** Original posting i as first posted (born at the base snapshot or in its round). */
  /** Posting and expiry dates: denser towards the snapshot time, since older postings have mostly been filled. */
  private datesOf(
    i: number,
    rng: Rng,
    born: number,
    at: number,
  ): { posted: number; expires: string | null | undefined } {
    const age = SPAN_DAYS * DAY * rng.next() ** 1.7;
    const posted = born === 0 ? at - age : at - rng.int(1, 60 * 59) * 1000;
    let expires: string | null | undefined;
    if (born === 0 && this.baseExpired(i) && at - posted > HOUR) {
      expires = isoMs(Math.max(posted + HOUR / 2, at - rng.next() * Math.min(30 * DAY, at - posted)));
    } else {
      const e = rng.next();
      if (e < 0.45) {
        const days = rng.pick([30, 30, 45, 60, 90]);
        let exp = posted + days * DAY;
        if (exp <= at) exp = at + rng.int(1, 60) * DAY;
        expires = isoMs(exp);
      } else if (e < 0.6) expires = null;
    }

    return { posted, expires };
  }

  private original(i: number): Original {
    const seed = this.seed;
    const rng = Rng.of(seed, 0x90, i);
    const born = this.layout ? this.birthRound(i) : 0;
    const at = this.baseTime + born * ROUND_INTERVAL_MS;
    const employer = this.employerFor(rng);

    // Country: mostly the employer's own.
    const country = rng.chance(employer.abroad) ? countryPicker.pick(rng) : employer.hq;
    let lang = 'en';
    if (country.lang && rng.chance(country.lang.share)) lang = country.lang.code;
    // Occupation: the employer's main family, sometimes another it hires for, sometimes any.
    let family: Family;
    const fr = rng.next();
    if (fr < 0.55) family = employer.families[0];
    else if (fr < 0.85) family = rng.pick(employer.families);
    else family = familyPicker.pick(rng);
    let picker = occupationPicker(family, lang);
    if (!picker) {
      picker = occupationPicker(family, 'en')!;
      lang = 'en';
    }
    const occ = picker.pick(rng);

    const { level, base, title } = titleOf(rng, occ, lang, at);
    const area = AREAS[occ.family];

    const { desk, arrangement, remote, cities, location, remoteLocation } = placeOf(
      rng,
      employer,
      occ,
      country,
    );

    const { skills, employmentType, partTime, education, years, department, benefits, visa } =
      classificationOf(rng, occ, level, employer, country, lang, desk);
    const salary = salaryOf(rng, occ, level, country, partTime);

    const { posted, expires } = this.datesOf(i, rng, born, at);

    // Ids and urls
    const source = employer.ats;
    const native = this.nativeId(source, i, rng);
    const domain = SOURCE.get(source)!.domain;
    const url = `https://${domain}/${employer.board}/${native}`;

    const ctxTitle = title === title.toUpperCase() && /[A-Z]/.test(title) ? base : title;
    const html = description(
      rng,
      {
        title: ctxTitle.replace(/ \((m\/w\/d|w\/m\/d|all genders|H\/F|F\/H)\)| H\/F/, ''),
        company: employer.name,
        city: cities[0]?.name ?? null,
        country: country.name,
        family: occ.family,
        skills,
        years: Math.max(1, years),
        remote,
        education: education?.[0] ?? null,
        benefits,
        visa,
        department,
      },
      lang,
    );

    const companyRef: PostingRecord['company'] = employer.slug
      ? rng.chance(0.9)
        ? { name: employer.name, slug: employer.slug, domain: employer.domain }
        : { name: rng.chance(0.8) ? employer.name : shortCompanyName(employer.name), domain: employer.domain }
      : { name: employer.name, domain: employer.domain };
    if (!employer.slug && rng.chance(0.3)) delete companyRef.domain;

    const rec: PostingRecord = {
      id: `${source}:${native}`,
      source,
      title,
      company: companyRef,
      url,
      ...(rng.chance(0.7) ? { apply_url: `${url}/apply` } : {}),
      // The job-posting platform gives plain text; the ATS boards give HTML.
      ...(source === 'jobposter' ? { description_text: htmlText(html) } : { description_html: html }),
      location,
      ...(remoteLocation ? { remote_location: remoteLocation } : {}),
      posted_at: isoMs(posted),
      ...(expires !== undefined ? { expires_at: expires } : {}),
      employment_type: employmentType,
      work_arrangement: arrangement,
      ...(rng.chance(0.85) ? { seniority: level.seniority } : {}),
      ...(rng.chance(0.7) ? { experience_level: level.exp } : {}),
      ...(education ? { education_requirements: education } : {}),
      ...(rng.chance(0.7) ? { department } : {}),
      ...(rng.chance(0.35)
        ? { team: occ.specs && rng.chance(0.5) ? rng.pick(occ.specs) : `${rng.pick(TEAMS)} ${area}` }
        : {}),
      ...(rng.chance(0.6)
        ? {
            requisition_id: rng.pick([
              `R-${rng.int(10000, 99999)}`,
              `REQ-${new Date(posted).getUTCFullYear()}-${rng.int(100, 9999)}`,
              `JR${rng.int(100000, 999999)}`,
            ]),
          }
        : {}),
      ...(salary ? { salary } : {}),
      ...(rng.chance(0.4)
        ? {
            working_hours: partTime
              ? rng.pick([16, 20, 24, 30])
              : country.code === 'FR'
                ? 35
                : country.code === 'DE'
                  ? rng.pick([38.5, 40])
                  : country.code === 'GB'
                    ? 37.5
                    : 40,
          }
        : {}),
      ...(skills.length ? { skills } : {}),
      keywords: [
        ...new Set([
          base.toLowerCase(),
          occ.family === 'software' ? 'engineering' : DEPARTMENTS[occ.family][0].toLowerCase(),
          ...skills.slice(0, 3),
        ]),
      ],
      ...(rng.chance(0.9) ? { taxonomies: occ.taxonomies.slice(0, rng.chance(0.7) ? 2 : 1) } : {}),
      job_language: lang,
      ...(visa !== null ? { visa_sponsorship: visa } : {}),
      ...(rng.chance(0.5)
        ? {
            requirements_summary: `${Math.max(1, years)}+ years as ${ctxTitle}${skills.length ? `; ${skills.slice(0, 3).join(', ')}` : ''}${education ? `; ${education[0]}` : ''}.`,
          }
        : {}),
      ...(benefits.length ? { benefits } : {}),
    };
    if (rng.chance(0.5))
      rec.core_responsibilities = `${ctxTitle} in the ${department} team at ${employer.name}.`;
    const copies = this.copiesOf(i);
    const boards = rng.sample(BOARDS, 3).map((b) => b.slug);
    return { index: i, rec, employer, occupation: occ, country, copies, boards, cities };
  }

  /** A syndicated copy of original o on a job board or aggregator (copy numbers past 2 appear in rounds). */
  private copy(o: Original, copyNo: number): PostingRecord {
    const rng = Rng.of(this.seed, 0xc7, o.index, copyNo);
    const board = copyNo < ROUND_COPY_BASE ? o.boards[copyNo] : rng.pick(BOARDS).slug;
    const src = SOURCE.get(board)!;
    const native = `${scramble32(o.index, hash32(this.seed, 0xb0)).toString(36)}${copyNo.toString(36).padStart(2, '0')}`;
    const orig = o.rec;
    const postedOrig = Date.parse(orig.posted_at!);
    const at =
      copyNo >= ROUND_COPY_BASE ? this.baseTime + (copyNo - ROUND_COPY_BASE) * ROUND_INTERVAL_MS : undefined;
    const ceiling = at ?? this.baseTime + this.birthRound(o.index) * ROUND_INTERVAL_MS;
    let posted =
      at !== undefined
        ? at - rng.int(1, 59) * 60_000
        : Math.min(postedOrig + rng.next() * 3 * DAY, Math.max(postedOrig, ceiling - 60_000));
    // A copy is listed while the original is open.
    if (orig.expires_at && Date.parse(orig.expires_at) <= posted)
      posted = Math.max(postedOrig, Date.parse(orig.expires_at) - 60_000);
    const footer = `<p>Originally posted on ${SOURCE.get(orig.source)!.name}.</p>`;
    const rec: PostingRecord = {
      ...orig,
      id: `${board}:${native}`,
      source: board,
      // Boards do not know the LinkedIn slug.
      company: { name: orig.company.name, ...(orig.company.domain ? { domain: orig.company.domain } : {}) },
      url: `https://${src.domain}/${o.employer.board}/${native}`,
      apply_url: orig.url,
      canonical_url: orig.url,
      posted_at: isoMs(posted),
    };
    if (orig.description_html !== undefined) rec.description_html = `${orig.description_html}\n${footer}`;
    else
      rec.description_text = `${orig.description_text}\n\nOriginally posted on ${SOURCE.get(orig.source)!.name}.`;
    if (src.type === 'aggregator') {
      delete rec.requisition_id;
      delete rec.team;
      if (rng.chance(0.5)) delete rec.department;
    }
    return rec;
  }

  // --- changes ----------------------------------------------------------------------------------------

  private modifyTracked(o: Original, r: number): void {
    const rng = Rng.of(this.seed, 0xd4, o.index, r);
    const rec = o.rec;
    const kind = rng.pick([
      'title',
      'location',
      'salary',
      'salary',
      'employment_type',
      'description',
      'description',
      'work_arrangement',
      'department',
      'apply_url',
    ]);
    switch (kind) {
      case 'title':
        rec.title = rng.pick([
          `${rec.title} - Immediate Start`,
          `${rec.title} II`,
          rec.title.replace(/^Senior /, 'Sr. ') === rec.title
            ? `Senior ${rec.title}`
            : rec.title.replace(/^Senior /, 'Sr. '),
        ]);
        break;
      case 'location': {
        if (rec.location?.remote) {
          rec.location.raw = [`Remote - ${o.country.name}`];
          break;
        }
        const c = pickCity(rng, o.country);
        rec.location = {
          ...rec.location,
          raw: [rawLocation(rng, c)],
          cities: [c.name],
          regions: c.region ? [c.region] : null,
          timezones: [c.timezone],
          countries: [o.country.name],
          continent: o.country.continent,
        };
        break;
      }
      case 'salary':
        if (rec.salary?.min !== undefined && rec.salary.max !== undefined) {
          const f = 1 + rng.int(3, 10) / 100;
          const step = rec.salary.unit === 'HOUR' ? 0.5 : rec.salary.unit === 'YEAR' ? 1000 : 50;
          rec.salary = {
            ...rec.salary,
            min: roundTo(rec.salary.min * f, step),
            max: roundTo(rec.salary.max * f, step),
          };
        } else {
          const annual = o.occupation.pay * o.country.pay * o.country.fx;
          rec.salary = {
            min: roundTo(annual * 0.9, 1000),
            max: roundTo(annual * 1.15, 1000),
            currency: o.country.currency,
            unit: 'YEAR',
          };
        }
        break;
      case 'employment_type':
        rec.employment_type = rec.employment_type?.includes('FULL_TIME') ? ['CONTRACTOR'] : ['FULL_TIME'];
        break;
      case 'description': {
        const note = rng.pick([
          'We have updated the responsibilities of this role.',
          'Applications are reviewed on a rolling basis; early applications are encouraged.',
          'This position now includes a sign-on bonus.',
          'Interviews will be held over the coming weeks.',
        ]);
        if (rec.description_html !== undefined) rec.description_html += `\n<p>${note}</p>`;
        else rec.description_text = `${rec.description_text ?? ''}\n\n${note}`;
        break;
      }
      case 'work_arrangement':
        if (rec.work_arrangement !== 'Remote')
          rec.work_arrangement = rec.work_arrangement === 'Hybrid' ? 'On-site' : 'Hybrid';
        else rec.title = `${rec.title} (Remote)`;
        break;
      case 'department':
        rec.department = rng.pick(
          DEPARTMENTS[o.occupation.family].filter((d) => d !== rec.department).concat(['Operations']),
        );
        break;
      case 'apply_url':
        rec.apply_url = `${rec.url}/apply?ref=${r}`;
        break;
    }
  }

  private modifyUntracked(o: Original, r: number): void {
    const rng = Rng.of(this.seed, 0xd5, o.index, r);
    const rec = o.rec;
    if (rng.chance(0.6)) {
      const extra = o.occupation.skills.find((s) => !rec.skills?.includes(s));
      rec.skills = extra ? [...(rec.skills ?? []), extra] : (rec.skills ?? []).slice(1);
    } else {
      const all = [
        ...new Set(OCCUPATIONS.filter((x) => x.family === o.occupation.family).flatMap((x) => x.taxonomies)),
      ];
      const extra = all.find((t) => !rec.taxonomies?.includes(t));
      rec.taxonomies = extra ? [...(rec.taxonomies ?? []), extra] : (rec.taxonomies ?? []).slice(0, 1);
    }
  }
}

function htmlText(html: string): string {
  return html
    .replace(/<li>/g, '- ')
    .replace(/<\/(p|li|h3|ul)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The base snapshot: source lines, then company lines, then postings. */
export function generateDataset(opts: GenerateOptions): Iterable<CanonicalLine> {
  return new DemoDataset(opts).base();
}

/** Round r (1-based) after the base snapshot of the same options. */
export function generateRound(opts: GenerateOptions, r: number): Iterable<CanonicalLine> {
  return new DemoDataset(opts).round(r);
}

/** The title of an original: its occupation at a level, in its language, with the boards' decorations. */
function titleOf(
  rng: Rng,
  occ: Occupation,
  lang: string,
  at: number,
): { level: Level; base: string; title: string } {
  const level = occ.levels ? levelPicker.pick(rng) : rng.pick(LEVELS.slice(1, 5));
  const base = lang === 'en' ? occ.title : occ[lang as 'de' | 'fr' | 'es']!;
  let title = base;
  const area = AREAS[occ.family];
  if (lang === 'en' && occ.levels) {
    switch (level.word) {
      case 'intern':
        title = rng.pick([
          `${base} Intern`,
          `Intern - ${base}`,
          `${base} Internship (Summer ${new Date(at).getUTCFullYear() + 1})`,
        ]);
        break;
      case 'junior':
        title = rng.pick([`Junior ${base}`, `${base} I`, `Graduate ${base}`, `Entry Level ${base}`]);
        break;
      case 'associate':
        title = `Associate ${base}`;
        break;
      case 'senior':
        title = rng.pick([`Senior ${base}`, `Senior ${base}`, `Sr. ${base}`, `${base} III`]);
        break;
      case 'staff':
        title = rng.pick([`Staff ${base}`, `Principal ${base}`]);
        break;
      case 'lead':
        title = rng.pick([`Lead ${base}`, `${base} Lead`, `${base} Team Lead`]);
        break;
      case 'head':
        title = rng.pick([`Head of ${area}`, `Director of ${area}`, `Director, ${area}`]);
        break;
      case 'vp':
        title = rng.pick([`VP of ${area}`, `Vice President, ${area}`]);
        break;
    }
  } else if (lang === 'de' && occ.levels && DE_SENIOR[level.word]) {
    title = `${DE_SENIOR[level.word]}${base}`;
  } else if (lang !== 'en' && level.word === 'intern') {
    title = lang === 'de' ? `Praktikant ${base}` : lang === 'fr' ? `Stagiaire ${base}` : `Prácticas ${base}`;
  }
  if (occ.specs && lang === 'en' && level.word !== 'head' && level.word !== 'vp' && rng.chance(0.3)) {
    const spec = rng.pick(occ.specs);
    title = rng.pick([`${title}, ${spec}`, `${title} - ${spec}`, `${title} (${spec})`]);
  }
  if (lang === 'de' && rng.chance(0.8))
    title += rng.pick([' (m/w/d)', ' (m/w/d)', ' (w/m/d)', ' (all genders)']);
  if (lang === 'fr' && rng.chance(0.5)) title += rng.pick([' (H/F)', ' H/F', ' (F/H)']);
  // A few boards post in capitals; display de-capitalises them.
  if (rng.chance(0.03)) title = title.toUpperCase();

  return { level, base, title };
}

/** Where an original is and how it is worked: arrangement, cities, the location as posted. */
function placeOf(rng: Rng, employer: Employer, occ: Occupation, country: CountryInfo) {
  const desk = DESK.has(occ.family) && !occ.hourly;
  const wa = rng.next();
  const remoteP = desk ? employer.remoteFriendly + 0.05 : 0.01;
  const arrangement = wa < remoteP ? 'Remote' : wa < remoteP + (desk ? 0.28 : 0.03) ? 'Hybrid' : 'On-site';
  const remote = arrangement === 'Remote';
  const cities: City[] = [];
  let raw: string[];
  let remoteLocation: string[] | undefined;
  let locCountries = [country];
  if (remote) {
    const multi = EU_REMOTE.includes(country.code) && rng.chance(0.2);
    locCountries = multi
      ? [
          country,
          ...rng
            .sample(
              EU_REMOTE.filter((c) => c !== country.code),
              rng.int(1, 4),
            )
            .map((c) => COUNTRY_BY_CODE.get(c)!),
        ]
      : [country];
    remoteLocation = locCountries.map((c) => c.name);
    const label = country.code === 'US' ? 'US' : country.code === 'GB' ? 'UK' : country.name;
    raw = multi
      ? [rng.pick(['Remote - Europe', 'Remote (EU)', 'Remote, Europe'])]
      : [
          rng.pick([
            `Remote - ${label}`,
            `Remote (${label})`,
            `Remote, ${country.name}`,
            `${country.name} (Remote)`,
          ]),
        ];
    // Some remote roles still name a home office.
    if (rng.chance(0.15)) {
      const hub = pickCity(rng, country);
      cities.push(hub);
      raw.push(rawLocation(rng, hub));
    }
  } else {
    const n = rng.chance(0.08) ? rng.int(2, 3) : 1;
    for (let k = 0; k < n; k++) {
      const c = pickCity(rng, country);
      if (!cities.some((x) => x.name === c.name)) cities.push(c);
    }
    // Occasionally one more office abroad.
    if (rng.chance(0.015)) {
      const other = countryPicker.pick(rng);
      if (other.code !== country.code) {
        cities.push(pickCity(rng, other));
        locCountries = [country, other];
      }
    }
    raw = cities.map((c) => rawLocation(rng, c));
  }
  const zones = remote
    ? [...new Set(locCountries.flatMap((c) => countryZones(c.code)))]
    : [...new Set(cities.map((c) => c.timezone))];
  const regions = [...new Set(cities.map((c) => c.region).filter((r): r is string => !!r))];
  const location = {
    raw,
    remote,
    countries: locCountries.map((c) => c.name),
    cities: cities.length ? cities.map((c) => c.name) : null,
    regions: regions.length ? regions : null,
    timezones: zones,
    continent: country.continent,
  };

  return { desk, arrangement, remote, cities, location, remoteLocation };
}

/** Employment types: interns are INTERN; hourly roles are often part-time or temporary; desk roles mostly full-time. */
function employmentTypeOf(rng: Rng, occ: Occupation, level: Level, employer: Employer): string[] {
  return level.word === 'intern'
    ? ['INTERN']
    : occ.hourly
      ? rng.chance(0.6)
        ? ['FULL_TIME']
        : rng.chance(0.7)
          ? ['PART_TIME']
          : rng.chance(0.5)
            ? ['FULL_TIME', 'PART_TIME']
            : rng.pick([['TEMPORARY'], occ.family === 'healthcare' ? ['PER_DIEM'] : ['TEMPORARY'], ['OTHER']])
      : rng.chance(0.9)
        ? ['FULL_TIME']
        : rng.pick([
            ['CONTRACTOR'],
            ['CONTRACTOR'],
            ['FULL_TIME', 'CONTRACTOR'],
            ['TEMPORARY'],
            employer.industry === 'Non-profit Organizations' ? ['VOLUNTEER'] : ['OTHER'],
          ]);
}

/** Pay in the country's currency and usual unit, for about the country's share of postings. */
function salaryOf(
  rng: Rng,
  occ: Occupation,
  level: Level,
  country: CountryInfo,
  partTime: boolean,
): PostingRecord['salary'] {
  let salary: PostingRecord['salary'];
  if (rng.chance(country.salaryShare)) {
    const annualUsd = occ.pay * level.pay * country.pay * rng.logNormal(1, 0.15);
    const local = annualUsd * country.fx * (partTime ? 0.55 : 1);
    const width = 1 + rng.next() * 0.4;
    let unit = 'YEAR';
    let factor = 1;
    if (occ.hourly && HOURLY_COUNTRIES.has(country.code) && rng.chance(0.75)) {
      unit = 'HOUR';
      factor = 1 / 2080;
    } else if (country.monthly && rng.chance(0.5)) {
      unit = 'MONTH';
      factor = 1 / 12;
    } else if (rng.chance(0.01)) {
      unit = rng.pick(['WEEK', 'DAY']);
      factor = unit === 'WEEK' ? 1 / 52 : 1 / 260;
    }
    const mid = local * factor;
    const step =
      unit === 'HOUR'
        ? BIG_UNIT_CURRENCIES.has(country.currency)
          ? 10
          : 0.5
        : BIG_UNIT_CURRENCIES.has(country.currency)
          ? 10 ** Math.max(3, Math.floor(Math.log10(mid)) - 1)
          : unit === 'YEAR'
            ? 1000
            : 50;
    const min = roundTo(mid / Math.sqrt(width), step);
    const single = rng.chance(0.08);
    const max = single ? min : Math.max(min + step, roundTo(mid * Math.sqrt(width), step));
    salary = { min, max, currency: country.currency, unit };
  }

  return salary;
}

/** Skills, employment type, education, experience, department, benefits and visa sponsorship of an original. */
function classificationOf(
  rng: Rng,
  occ: Occupation,
  level: Level,
  employer: Employer,
  country: CountryInfo,
  lang: string,
  desk: boolean,
) {
  const skills = rng.chance(0.88) ? rng.sample(occ.skills, rng.int(3, Math.min(8, occ.skills.length))) : [];
  const employmentType = employmentTypeOf(rng, occ, level, employer);
  const partTime = employmentType.length === 1 && employmentType[0] === 'PART_TIME';
  const education =
    occ.edu && rng.chance(0.6)
      ? rng.chance(0.15) && occ.edu === 'bachelor degree'
        ? [occ.edu, 'postgraduate degree']
        : [occ.edu]
      : undefined;
  const years =
    level.exp === '0-2'
      ? rng.int(0, 2)
      : level.exp === '2-5'
        ? rng.int(2, 5)
        : level.exp === '5-10'
          ? rng.int(5, 8)
          : rng.int(10, 12);
  const department = rng.pick(DEPARTMENTS[occ.family]);
  const benefitPool = BENEFITS[lang as 'en' | 'de' | 'fr' | 'es'].filter(
    (b) =>
      lang !== 'en' ||
      (country.code === 'US'
        ? !/Pension|holiday|Private medical/.test(b)
        : !/401\(k\)|Commuter|dental and vision/.test(b)),
  );
  const benefits = rng.chance(0.5) ? rng.sample(benefitPool, rng.int(3, 6)) : [];
  const visaRoll = rng.next();
  const visa =
    visaRoll < (desk && country.code === 'US' ? 0.05 : 0.02)
      ? true
      : visaRoll > (desk ? 0.95 : 0.985)
        ? false
        : null;

  return { skills, employmentType, partTime, education, years, department, benefits, visa };
}
