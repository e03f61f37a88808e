// Enrichment of one posting: every field of the public Job derived from what the source gave.
// A value present in the record always wins over a derived one; derivation only fills gaps.
import { continentOfCountry, countryName, lookupCountry, toCountryCode } from '../geo/countries.ts';
import { geocode, type GeoResult } from '../geo/geocode.ts';
import { distance } from 'fastest-levenshtein';
import {
  countriesOfZone,
  findCities,
  findRegions,
  foldKey,
  regionByCode,
  timezonesOf,
} from '../geo/gazetteer.ts';
import type { PostingRecord } from '../model/record.ts';
import {
  EDUCATION_LEVELS,
  EXPERIENCE_LEVELS,
  inferEducation,
  inferEmploymentTypes,
  inferExperience,
  inferSeniority,
  mapEducation,
  mapEmploymentTypes,
  mapExperience,
  mapSeniority,
} from './classify.ts';
import type { EnrichedPosting, JobLocation } from '../model/enriched.ts';
import { arrangementFromText } from './arrangement.ts';
import { resolveSalary } from './salary.ts';
import { htmlToText, sanitizeDescription, textToHtml } from './sanitize.ts';
import { employerSkills, extractSkills, normaliseSkill, roleText } from './skills.ts';
import { CONTINENTS } from '../enums.ts';
import { TAXONOMIES, taxonomies as inferTaxonomies } from './taxonomy.ts';
import {
  benefits as inferBenefits,
  department as inferDepartment,
  detectLanguage,
  keywords as inferKeywords,
  sections,
  summarise,
  visaSponsorship,
  workingHours,
} from './text.ts';
import { displayTitle } from './title.ts';

type Arrangement = EnrichedPosting['work_arrangement'];

// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const ARRANGEMENT: Record<string, Arrangement> = Object.setPrototypeOf(
  {
    onsite: 'On-site',
    'on-site': 'On-site',
    'on site': 'On-site',
    office: 'On-site',
    inoffice: 'On-site',
    hybrid: 'Hybrid',
    remote: 'Remote',
    telecommute: 'Remote',
    fullyremote: 'Remote',
  },
  null,
);
const CONTINENT_SET = new Set<string>(CONTINENTS);
const TAXONOMY_SET = new Set<string>(TAXONOMIES);

function mapArrangement(v: string | undefined): Arrangement | undefined {
  if (!v) return undefined;
  if (v === 'On-site' || v === 'Hybrid' || v === 'Remote') return v;
  return (
    ARRANGEMENT[
      v
        .toLowerCase()
        .replace(/[_\s]+/g, '')
        .replace('-', '') as string
    ] ?? ARRANGEMENT[v.toLowerCase()]
  );
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

function uniq<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/** Country codes of names or codes given by a source ("Germany", "DE", "de", "USA"). */
function codesOf(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const c = toCountryCode(v) ?? lookupCountry(v);
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

/** The geocoded city a given name misspells (at most two edits in a name of five letters or more). */
function nearCity(name: string, cities: readonly string[]): string | undefined {
  const k = foldKey(name);
  if (k.length < 5) return undefined;
  return cities.find((c) => distance(k, foldKey(c)) <= 2);
}

/** A given city or region written with more than its name ("Austin, TX", "DE - Munich", "Berlin (Mitte)"). */
const COMPOUND = /,|\s[-–—]\s|\(/;

/** Given cities and regions read alone, per country context: a few thousand distinct names in practice. */
const ONE_PLACE = new Map<string, GeoResult>();

interface MergedLocation {
  codes: string[];
  cities: string[];
  /** Folded gazetteer names of the cities ("New York" and "NYC" both "new york city"), for matching. */
  cityKeys: string[];
  regions: string[];
  timezones: string[];
  continents: string[];
}

/**
 * The location of a posting from what the source gave and what its strings geocode to. Every place
 * named by either counts: the given values first (in their spelling), then the geocoded ones that name
 * something not given. So countries, cities, regions, zones and continents describe the same places.
 * `continents[0]` (the public `location.continent`) is the given continent, else that of the first
 * country, i.e. the posting's first location as the source lists it.
 */
function mergeLocation(
  loc: NonNullable<PostingRecord['location']>,
  givenCodes: string[],
  geo: GeoResult,
  currency: string | undefined,
): MergedLocation {
  const codes = [...givenCodes];
  const cities: string[] = [];
  const regions: string[] = [];
  const seenCity = new Set<string>();
  const seenRegion = new Set<string>();
  const addCountry = (cc: string) => {
    if (!codes.includes(cc)) codes.push(cc);
  };
  const addRegion = (name: string, canonical?: string) => {
    const keys = [foldKey(name), canonical ? foldKey(canonical) : ''];
    if (keys.some((k) => k && seenRegion.has(k))) return;
    regions.push(name);
    for (const k of keys) if (k) seenRegion.add(k);
  };
  const cityKeys: string[] = [];
  const addCity = (name: string, canonical?: string) => {
    const keys = [foldKey(name), canonical ? foldKey(canonical) : ''];
    if (keys.some((k) => k && seenCity.has(k))) return;
    cities.push(name);
    cityKeys.push(keys[1] || keys[0]);
    for (const k of keys) if (k) seenCity.add(k);
  };
  const ctx = { countries: givenCodes, currency };
  const geocodeOne = (text: string): GeoResult => {
    const key = `${text}|${givenCodes.join(',')}|${currency ?? ''}`;
    let g = ONE_PLACE.get(key);
    if (!g) {
      if (ONE_PLACE.size >= 50_000) ONE_PLACE.clear();
      g = geocode([text], ctx);
      ONE_PLACE.set(key, g);
    }
    return g;
  };
  // A country given as a city or region ("Latvia" in every address field) is the country, no place in it,
  // unless it is also a city of its own (Singapore).
  // Country names only, not aliases: "Norfolk" is an English county before it is Norfolk Island.
  const notCountry = (name: string) => {
    const cc = toCountryCode(name);
    return !cc || findCities(name, cc).length > 0 || findCities(name).some((c) => c.pop >= 15000);
  };
  const givenCities = (Array.isArray(loc.cities) ? strings(loc.cities) : []).filter(notCountry);
  // A region named like one of the posting's countries ("UAE" in Dubai) is that country; "Georgia" in
  // the United States is the state.
  const givenRegions = (Array.isArray(loc.regions) ? strings(loc.regions) : []).filter(
    (r) => !givenCodes.includes(toCountryCode(r) ?? ''),
  );
  for (const given of givenRegions) {
    // A state code ("NY", "CA", "MO") given in a country that has them: its name.
    const code = /^[A-Z]{2,3}$/.test(given);
    const coded = code
      ? givenCodes
          .filter((cc): cc is 'US' | 'CA' | 'AU' => cc === 'US' || cc === 'CA' || cc === 'AU')
          .map((cc) => regionByCode(given, cc))
          .find(Boolean)
      : undefined;
    // A city given as the region ("Washington D.C."): the region it lies in.
    const asCity = geocodeOne(given);
    const r =
      !code && asCity.cities.length && asCity.regions[0] && !findRegions(given).length
        ? asCity.regions[0]
        : given;
    if (coded) addRegion(coded.name, coded.name);
    else addRegion(r, r === given ? asCity.regions[0] : r);
  }
  for (const given of givenCities) {
    // A misspelt city ("San Fransisco") that the posting's own strings name correctly is that city.
    const c = (!COMPOUND.test(given) && !findCities(given).length && nearCity(given, geo.cities)) || given;
    const g = geocodeOne(c);
    // Read with its state or country only when that agrees with the given countries ("Washington, D.C."
    // is not the English town).
    const agrees = !givenCodes.length || g.countries.some((cc) => givenCodes.includes(cc));
    if (COMPOUND.test(c) && agrees) {
      // A city given with its state or country: the city, and the region and country it names.
      for (const cc of g.countries) addCountry(cc);
      for (const r of g.regions) addRegion(r);
      const name = g.cities[0] ?? c.split(COMPOUND)[0].trim();
      if (name) addCity(name, g.cities[0]);
    } else if (COMPOUND.test(c)) addCity(c.split(COMPOUND)[0].trim() || c);
    else addCity(c, agrees ? g.cities[0] : undefined);
  }
  for (const cc of geo.countries) addCountry(cc);
  for (const r of geo.regions) addRegion(r);
  for (const c of geo.cities) addCity(c);

  const timezones: string[] = [];
  for (const z of [...strings(loc.timezones), ...geo.timezones])
    if (!timezones.includes(z)) timezones.push(z);
  // A country no zone belongs to (given by the source, absent from the strings) gets its own zones.
  const covered = new Set(timezones.flatMap((z) => countriesOfZone(z)));
  for (const cc of codes) {
    if (covered.has(cc)) continue;
    for (const z of timezonesOf(cc)) if (!timezones.includes(z)) timezones.push(z);
  }

  const continents: string[] = [];
  const givenContinent = nonEmpty(loc.continent);
  if (givenContinent && CONTINENT_SET.has(givenContinent)) continents.push(givenContinent);
  for (const c of codes) {
    const k = continentOfCountry(c);
    if (k && !continents.includes(k)) continents.push(k);
  }
  for (const k of geo.continents) if (!continents.includes(k)) continents.push(k);
  return { codes, cities, cityKeys, regions, timezones, continents };
}

/**
 * The posting's place and work arrangement: given and geocoded places merged, the arrangement from the
 * source, then the location strings, then the description's sentences (On-site only when all are silent).
 */
function whereAndHow(rec: PostingRecord, text: string) {
  const loc = rec.location ?? {};
  const raw = strings(loc.raw);
  const givenCodes = codesOf(strings(loc.countries));
  const salaryCurrency = nonEmpty(rec.salary?.currency)?.toUpperCase();
  const geo: GeoResult = geocode(raw, { countries: givenCodes, currency: salaryCurrency });
  const place = mergeLocation(loc, givenCodes, geo, salaryCurrency);
  const codes = place.codes;
  const sourceArrangement = mapArrangement(nonEmpty(rec.work_arrangement));
  let arrangement: Arrangement;
  if (sourceArrangement) arrangement = sourceArrangement;
  else if (loc.remote === true) arrangement = 'Remote';
  else if (geo.hybrid) arrangement = 'Hybrid';
  else if (geo.remote && !geo.onsite) arrangement = 'Remote';
  else if (geo.onsite) arrangement = 'On-site';
  else arrangement = arrangementFromText(text) ?? 'On-site';
  // One truth for both fields: a contradictory source (remote: false with arrangement Remote) follows the arrangement.
  const remote = arrangement === 'Remote';

  const location: JobLocation = {
    remote,
    countries: codes.map((c) => countryName(c)!),
    cities: place.cities.length ? place.cities : null,
    regions: place.regions.length ? place.regions : null,
    coords: null,
    timezones: place.timezones,
    continent: place.continents[0] ?? null,
    raw,
  };
  const continents = place.continents;

  let remoteLocation = strings(rec.remote_location);
  if (remoteLocation.length) {
    // Given as names or codes: stored as full names like location.countries.
    remoteLocation = uniq(
      remoteLocation.map((v) => countryName(toCountryCode(v) ?? lookupCountry(v) ?? '') ?? v),
    );
  } else if (arrangement === 'Remote') {
    const rc = geo.remoteCountries.length ? geo.remoteCountries : codes;
    remoteLocation = rc.map((c) => countryName(c)!).filter(Boolean);
  }

  return { location, codes, continents, cityKeys: place.cityKeys, arrangement, remoteLocation };
}

export function enrichPosting(rec: PostingRecord): EnrichedPosting {
  const title = displayTitle(typeof rec.title === 'string' ? rec.title : '');
  const given = sanitizeDescription(typeof rec.description_html === 'string' ? rec.description_html : '');
  const text = given
    ? htmlToText(given)
    : (typeof rec.description_text === 'string' ? rec.description_text : '').replace(/\r\n?/g, '\n').trim();
  // A source that gives only plain text still has an HTML form: its paragraphs, escaped.
  const html = given || textToHtml(text);
  const fullText = `${title}\n${text}`;

  // --- Location ---
  const { location, codes, continents, cityKeys, arrangement, remoteLocation } = whereAndHow(rec, text);

  // --- Classification ---
  const givenTypes = mapEmploymentTypes(strings(rec.employment_type));
  const employmentType = givenTypes.length ? givenTypes : inferEmploymentTypes(title, text);

  const experience = mapExperience(nonEmpty(rec.experience_level)) ?? inferExperience(text);
  const seniority = mapSeniority(nonEmpty(rec.seniority)) ?? inferSeniority(title, experience) ?? null;

  const givenEducation = mapEducation(strings(rec.education_requirements));
  const education = givenEducation.length ? givenEducation : inferEducation(text);

  // --- Salary ---
  const salaryCtx = { countries: codes };
  const salary = resolveSalary(rec.salary, text, salaryCtx);

  // --- Text facts ---
  const secs = text ? sections(text) : { requirements: [], responsibilities: [], benefits: [] };
  const givenSkills = strings(rec.skills).map(normaliseSkill).filter(Boolean);
  const givenTax = strings(rec.taxonomies).filter((t) => TAXONOMY_SET.has(t));
  const givenKeywords = strings(rec.keywords);
  const givenBenefits = strings(rec.benefits);
  const language = nonEmpty(rec.job_language)?.toLowerCase() ?? (text ? detectLanguage(fullText) : null);

  return {
    title,
    location,
    country_codes: codes,
    continents,
    city_keys: cityKeys,
    remote_location: remoteLocation,
    employment_type: employmentType,
    work_arrangement: arrangement,
    seniority,
    experience_level: experience && EXPERIENCE_LEVELS.includes(experience) ? experience : null,
    education_requirements: education.filter((e) => EDUCATION_LEVELS.includes(e)),
    department: nonEmpty(rec.department) ?? inferDepartment(title),
    salary,
    working_hours:
      typeof rec.working_hours === 'number' && Number.isFinite(rec.working_hours) && rec.working_hours > 0
        ? rec.working_hours
        : text
          ? workingHours(text)
          : null,
    skills: givenSkills.length
      ? uniq(givenSkills)
      : extractSkills([title, roleText(text, rec.company?.name)], 40, employerSkills(rec.company?.name)),
    keywords: givenKeywords.length
      ? uniq(givenKeywords.map((k) => k.trim().toLowerCase()))
      : inferKeywords(title, text),
    taxonomies: givenTax.length ? uniq(givenTax) : inferTaxonomies(title, text),
    job_language: language,
    visa_sponsorship:
      typeof rec.visa_sponsorship === 'boolean' ? rec.visa_sponsorship : visaSponsorship(text),
    requirements_summary: nonEmpty(rec.requirements_summary) ?? summarise(secs.requirements),
    core_responsibilities: nonEmpty(rec.core_responsibilities) ?? summarise(secs.responsibilities),
    benefits: givenBenefits.length ? givenBenefits : text ? inferBenefits(text, secs.benefits) : [],
    description_html: html,
    description_text: text,
  };
}
