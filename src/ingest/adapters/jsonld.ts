// schema.org JobPosting JSON-LD embedded in job pages (job boards, aggregators). Tolerates several
// ld+json blocks, @graph wrappers and lists, arrays where one value is expected, a bare-number
// baseSalary and entity-escaped descriptions.
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import type { LocationInput, PostingRecord, SalaryInput } from '../../model/record.ts';
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  amount,
  asArray,
  companyOf,
  compact,
  country,
  decodeOnce,
  domainOf,
  education,
  employmentTypes,
  experienceFromYears,
  first,
  httpUrl,
  isObj,
  joinPlace,
  location,
  type Obj,
  Reject,
  requireTitle,
  salary,
  salaryUnit,
  str,
  toIsoUtc,
  unescapeIfEscaped,
  uniq,
} from './util.ts';

interface Page {
  blocks: string[];
  canonical?: string;
  ogUrl?: string;
}

function extract(payload: string): Page {
  const t = payload.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) return { blocks: [payload] };
  const page: Page = { blocks: [] };
  let current: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script' && /ld\+json/i.test(attrs.type ?? '')) current = '';
        if (name === 'link' && /\bcanonical\b/i.test(attrs.rel ?? '') && attrs.href)
          page.canonical ??= attrs.href;
        // Ashby's pages name their address only in og:url.
        if (name === 'meta' && /^og:url$/i.test(attrs.property ?? attrs.name ?? '') && attrs.content)
          page.ogUrl ??= attrs.content;
      },
      ontext(text) {
        if (current !== null) current += text;
      },
      onclosetag(name) {
        if (name === 'script' && current !== null) {
          page.blocks.push(current);
          current = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(payload);
  parser.end();
  return page;
}

function isJobPosting(o: Obj): boolean {
  return asArray(o['@type']).some((t) => typeof t === 'string' && /(^|[/:])JobPosting$/.test(t));
}

/** Every JobPosting node, wherever it sits (@graph, ItemList, arrays, nested items). */
function collect(v: unknown, out: Obj[], depth = 0): void {
  if (depth > 12) return;
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out, depth + 1);
    return;
  }
  if (!isObj(v)) return;
  if (isJobPosting(v)) {
    out.push(v);
    return;
  }
  for (const x of Object.values(v)) if (typeof x === 'object') collect(x, out, depth + 1);
}

const text = (v: unknown): string | undefined => {
  const s = str(first(v));
  return s ? decodeOnce(s) : undefined;
};

// Values some generators write where they have none ("UNAVAILABLE" in every address field).
const PLACEHOLDER = /^(?:unavailable|n\/?a|none|null|undefined|unknown|tbd|-+)$/i;
const placeText = (v: unknown): string | undefined => {
  const s = text(v);
  return s && !PLACEHOLDER.test(s) ? s : undefined;
};

/** A URL as written in a JSON-LD string: entities such as "&amp;" decoded once. */
const urlOf = (v: unknown): string | undefined => httpUrl(text(v));

const nameOf = (v: unknown): string | undefined => {
  const x = first(v);
  return isObj(x) ? text(x.name) : text(x);
};

function places(p: Obj): LocationInput {
  const raw: string[] = [];
  const countries: string[] = [];
  const cities: string[] = [];
  const regions: string[] = [];
  for (const place of asArray(p.jobLocation)) {
    if (typeof place === 'string') {
      raw.push(place);
      continue;
    }
    if (!isObj(place)) continue;
    for (const addr of asArray(place.address)) {
      if (typeof addr === 'string') {
        raw.push(addr);
        continue;
      }
      if (!isObj(addr)) continue;
      const countryText = placeText(
        isObj(first(addr.addressCountry)) ? (first(addr.addressCountry) as Obj).name : addr.addressCountry,
      );
      const c = country(countryText);
      const city = placeText(addr.addressLocality);
      const region = placeText(addr.addressRegion);
      const r = joinPlace(city, region, countryText);
      if (r) raw.push(r);
      if (c) countries.push(c);
      if (city) cities.push(city);
      if (region) regions.push(region);
    }
    if (place.address === undefined && text(place.name)) raw.push(text(place.name)!);
  }
  return { raw, countries, cities, regions };
}

function baseSalary(p: Obj): SalaryInput | undefined {
  const b = first(p.baseSalary);
  const topCurrency = str(first(p.salaryCurrency))?.toUpperCase();
  if (typeof b === 'number' || typeof b === 'string') {
    const n = amount(b);
    return n === undefined ? undefined : salary({ min: n, max: n, currency: topCurrency });
  }
  if (!isObj(b)) return undefined;
  const currency = str(b.currency)?.toUpperCase() ?? topCurrency;
  const v = first(b.value);
  if (typeof v === 'number' || typeof v === 'string') {
    const n = amount(v);
    return salary({ min: n, max: n, currency, unit: salaryUnit(b.unitText) });
  }
  if (!isObj(v))
    return salary({
      min: amount(b.minValue),
      max: amount(b.maxValue),
      currency,
      unit: salaryUnit(b.unitText),
    });
  const exact = amount(v.value);
  return salary({
    min: amount(v.minValue) ?? exact,
    max: amount(v.maxValue) ?? exact,
    currency,
    unit: salaryUnit(v.unitText ?? b.unitText),
  });
}

function identifier(p: Obj): string | undefined {
  const id = first(p.identifier);
  if (isObj(id)) return str(id.value) ?? str(id['@value']);
  return str(id);
}

function months(p: Obj): number | undefined {
  const e = first(p.experienceRequirements);
  if (!isObj(e)) return undefined;
  return amount(e.monthsOfExperience);
}

function credential(p: Obj): unknown[] {
  return asArray(p.educationRequirements).map((e) => (isObj(e) ? e.credentialCategory : e));
}

function mapPosting(p: Obj, ctx: AdapterContext, pageUrl: string | undefined, only: boolean): PostingRecord {
  const title = requireTitle(text(p.title));
  const ownUrl = urlOf(p.url);
  const url = ownUrl ?? (only ? pageUrl : undefined);
  const native =
    identifier(p) ?? (url ? createHash('sha256').update(url).digest('hex').slice(0, 16) : undefined);
  if (!native) throw new Reject('no identifier and no url to tell the posting apart');
  if (!url) throw new Reject('missing url');
  const org = first(p.hiringOrganization);
  const orgName = isObj(org) ? text(org.name) : text(org);
  const website = isObj(org) ? (httpUrl(first(org.sameAs)) ?? httpUrl(first(org.url))) : undefined;
  const logoV = isObj(org) ? first(org.logo) : undefined;
  const logo = httpUrl(isObj(logoV) ? first(logoV.url) : logoV);
  const remote = asArray(p.jobLocationType).some((t) => typeof t === 'string' && /telecommute/i.test(t));
  const loc = places(p);
  const remoteLocation = uniq(
    asArray(p.applicantLocationRequirements).map((r) => country(isObj(r) ? nameOf(r.name) : text(r))),
  );
  // A remote posting's applicant countries are countries it is in.
  if (remote) loc.countries = uniq([...(loc.countries ?? []), ...remoteLocation]);
  // Not decoded here: real HTML keeps its entities; only an escaped body is unescaped (once).
  const description = str(first(p.description));
  const html = description ? unescapeIfEscaped(description) : undefined;
  const m = months(p);
  return {
    id: `${ctx.source}:${native}`,
    source: ctx.source,
    title,
    company: companyOf(ctx, orgName, { website, domain: domainOf(website), logo }),
    url,
    canonical_url: only ? (httpUrl(pageUrl) ?? url) : url,
    description_html: html && /<[a-z]/i.test(html) ? html : undefined,
    description_text: html && !/<[a-z]/i.test(html) ? html : undefined,
    location: location({ ...loc, remote: remote ? true : undefined }),
    remote_location: remoteLocation.length ? remoteLocation : undefined,
    work_arrangement: remote ? 'Remote' : undefined,
    employment_type: employmentTypes(p.employmentType),
    posted_at: toIsoUtc(first(p.datePosted)),
    expires_at: toIsoUtc(first(p.validThrough)),
    salary: baseSalary(p),
    education_requirements: education(credential(p)),
    experience_level: m === undefined ? undefined : experienceFromYears(m / 12),
    board: ctx.board,
  };
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const page = extract(payload);
  const res: AdapterResult = { postings: [], rejected: [], dropped: 0 };
  const nodes: Obj[] = [];
  let valid = 0;
  page.blocks.forEach((b, i) => {
    try {
      collect(JSON.parse(b), nodes);
      valid++;
    } catch {
      res.rejected.push({ reason: `ld+json block ${i + 1} is not valid JSON` });
    }
  });
  if (nodes.length === 0) {
    throw new AdapterFormatError(
      'jsonld',
      page.blocks.length === 0
        ? 'no ld+json block in the page'
        : `no JobPosting in ${valid} ld+json block(s)`,
    );
  }
  // The page's own address: its canonical link, its og:url, else the address it was fetched from.
  const pageUrl = httpUrl(page.canonical) ?? httpUrl(page.ogUrl) ?? httpUrl(ctx.url);
  const seen = new Set<string>();
  for (const node of nodes) {
    try {
      const rec = compact(mapPosting(node, ctx, pageUrl, nodes.length === 1));
      if (seen.has(rec.id)) continue; // the same posting repeated in several blocks
      seen.add(rec.id);
      res.postings.push(rec);
    } catch (err) {
      const id = identifier(node);
      const reason = err instanceof Reject ? err.message : `unreadable posting: ${(err as Error).message}`;
      res.rejected.push(id ? { native_id: id, reason } : { reason });
    }
  }
  return res;
}

export const jsonld: Adapter = { format: 'jsonld', parse };
