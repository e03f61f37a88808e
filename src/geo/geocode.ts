// Geocoding of location strings as posted ("NYC", "San Francisco, CA", "Remote – EU", "Hybrid (Berlin)",
// "München, Bayern, Deutschland", "Berlin; Paris") into countries, regions, cities and zones, offline.
import { continentOfCountry, countryName, isCountryCode, lookupCountry } from './countries.ts';
import {
  type City,
  findCities,
  findRegions,
  foldKey,
  isCityAlias,
  type Region,
  regionByCode,
  regionOf,
  timezoneOfCity,
  timezonesOf,
  US_STATES,
} from './gazetteer.ts';

export interface GeoResult {
  /** Some string says remote / hybrid / on-site. */
  remote: boolean;
  hybrid: boolean;
  onsite: boolean;
  /** ISO-2 codes, in order of appearance. */
  countries: string[];
  regions: string[];
  cities: string[];
  timezones: string[];
  continents: string[];
  /** ISO-2 codes where a remote role may be done, when a string restricts it ("Remote – EU"). */
  remoteCountries: string[];
}

export interface GeoContext {
  /** ISO-2 codes the posting is otherwise known to be in (source fields, other strings). */
  countries?: string[];
  /** ISO-4217 currency of the posted salary: a hint for "CA" (Canada or California). */
  currency?: string;
}

const EU = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
/** Named groups of countries or continents used in remote restrictions. */
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const GROUPS: Record<string, { countries?: string[]; continents?: string[] }> = Object.setPrototypeOf(
  {
    eu: { countries: EU, continents: ['Europe'] },
    'european union': { countries: EU, continents: ['Europe'] },
    eea: { countries: [...EU, 'IS', 'LI', 'NO'], continents: ['Europe'] },
    dach: { countries: ['DE', 'AT', 'CH'], continents: ['Europe'] },
    benelux: { countries: ['BE', 'NL', 'LU'], continents: ['Europe'] },
    nordics: { countries: ['DK', 'FI', 'IS', 'NO', 'SE'], continents: ['Europe'] },
    nordic: { countries: ['DK', 'FI', 'IS', 'NO', 'SE'], continents: ['Europe'] },
    scandinavia: { countries: ['DK', 'NO', 'SE'], continents: ['Europe'] },
    'uk i': { countries: ['GB', 'IE'], continents: ['Europe'] },
    'uk ireland': { countries: ['GB', 'IE'], continents: ['Europe'] },
    europe: { continents: ['Europe'] },
    emea: { continents: ['Europe', 'Africa', 'Asia'] },
    'middle east': { continents: ['Asia'] },
    africa: { continents: ['Africa'] },
    asia: { continents: ['Asia'] },
    apac: { continents: ['Asia', 'Oceania'] },
    'asia pacific': { continents: ['Asia', 'Oceania'] },
    oceania: { continents: ['Oceania'] },
    anz: { countries: ['AU', 'NZ'], continents: ['Oceania'] },
    'north america': { continents: ['North America'] },
    namer: { continents: ['North America'] },
    amer: { continents: ['North America', 'South America'] },
    americas: { continents: ['North America', 'South America'] },
    latam: { continents: ['South America', 'North America'] },
    'latin america': { continents: ['South America', 'North America'] },
    'south america': { continents: ['South America'] },
    'us canada': { countries: ['US', 'CA'], continents: ['North America'] },
    'usa canada': { countries: ['US', 'CA'], continents: ['North America'] },
    'us ca': { countries: ['US', 'CA'], continents: ['North America'] },
  },
  null,
);
const WORLDWIDE =
  /^(?:worldwide|global|globally|anywhere|international|world ?wide|any ?where in the world|earth)$/;

// Zone words in remote restrictions ("Remote (CET ± 2h)", "US Eastern time").
const ZONE_WORDS: [RegExp, string][] = [
  [/\b(?:e[sd]t|eastern(?: time| standard time)?)\b/i, 'America/New_York'],
  [/\b(?:c[sd]t|central time|central standard time)\b/i, 'America/Chicago'],
  [/\b(?:m[sd]t|mountain time)\b/i, 'America/Denver'],
  [/\b(?:p[sd]t|pacific time|pacific standard time)\b/i, 'America/Los_Angeles'],
  [/\b(?:cet|cest|central european (?:summer )?time)\b/i, 'Europe/Berlin'],
  [/\beast coast\b/i, 'America/New_York'],
  [/\bwest coast\b/i, 'America/Los_Angeles'],
  [/\b(?:bst|gmt)\b/i, 'Europe/London'],
  [/\b(?:eest?)\b/i, 'Europe/Helsinki'],
  [/\b(?:aest|aedt)\b/i, 'Australia/Sydney'],
  [/\bsgt\b/i, 'Asia/Singapore'],
  [/\bjst\b/i, 'Asia/Tokyo'],
];

const REMOTE_RE =
  /\b(?:fully[ -]remote|100% remote|remote(?:[ -](?:first|friendly|only|ok|eligible|possible))?|work from home|wfh|work from anywhere|telecommute|telework|home[ -]?office|home[ -]based|distributed|remoto|remota|t[ée]l[ée]travail|[àa] distance|en remoto|mobiles arbeiten)\b/giu;
const HYBRID_RE = /\b(?:hybrid|hybride|h[íi]brido|h[íi]brida|flex(?:ible)? office)\b/giu;
const ONSITE_RE =
  /\b(?:on[ -]?site|in[ -]office|office[ -]based|in[ -]person|vor ort|presencial|sur site)\b/giu;
const NOISE_RE =
  /\b(?:only|based|within|in|from|the|or|and|any|location|locations|country|countries|time ?zones?|timezone|tz|friendly|first|position|role|job|work|working|offices?|\+\/- ?\d+h?|± ?\d+h?|\d+ ?h(?:ours?)?)\b/giu;
const MULTI_RE = /^\s*\d+\s+(?:locations?|standorte|sites|offices|lieux|ubicaciones)\s*$/i;
// Lower-case "or" only: "OR" is Oregon ("Portland, OR").
const SPLIT_RE = /\s*(?:;|\||•|·|\n|\s\/\s|(?<=\p{L})\/(?=\p{L})|\bor\b|\boder\b|\bou\b)\s*/u;
const POSTCODE_RE = /\b(?:\d{4,6}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})\b/g;
const AREA_RE =
  /^(?:greater|metro(?:politan)?|grand)\s+|\s+(?:area|metro(?:politan)?(?: area)?|region|city area)$/i;
const STOP_PLACES = new Set([
  'headquarters',
  'hq',
  'office',
  'main office',
  'multiple',
  'various',
  'field',
  'home',
  'flexible',
  'tbd',
  'n a',
  'na',
  'other',
  'nationwide',
  'national',
  'virtual',
  'central',
  'north',
  'south',
  'east',
  'west',
  'hub',
  'campus',
  'us remote',
  'multiple locations',
  'see description',
  'onsite',
  'on site',
]);

interface Place {
  cc?: string;
  region?: Region;
  regionText?: string;
  city?: City;
  cityText?: string;
  /** Zones named in the string. */
  zones: string[];
  groupCountries?: string[];
  groupContinents?: string[];
  /** "CA" alone or as the last part: Canada or California, settled later with context. */
  ambiguousCode?: string;
  cityBeforeAmbiguous?: string;
  /** Other readings of a one-part name in other countries, taken when the posting is known to be there. */
  alternatives?: Place[];
}

function addUnique<T>(list: T[], v: T | undefined): void {
  if (v !== undefined && v !== '' && !list.includes(v)) list.push(v);
}

/** A lone "XX" that may be a country code or a US state / Canadian province code. */
function stateOrCountry(code: string): boolean {
  return US_STATES[code] !== undefined && isCountryCode(code);
}

function cityIn(name: string, cc?: string, admin?: string, minPop = 0): City | undefined {
  const list = findCities(name, cc, admin);
  const c = list[0];
  return c && c.pop >= minPop ? c : undefined;
}

/** Resolve one place string (remote words already removed) into a Place. */
/** The parts of a location string, country last: postcodes and decorations dropped, dashes and codes read. */
function placeParts(text: string): string[] {
  let s = codePath(text) ?? text;
  // "1271 Avenue of the Americas, New York, NY": a street address before the place is no place.
  const comma = s.split(',');
  if (comma.length > 1 && STREET_RE.test(comma[0].trim())) s = comma.slice(1).join(',');
  // "US - Bay Area", "San Francisco Bay Area": the region around the bay, not a town named Bay.
  s = s.replace(BAY_AREA_RE, 'California');
  s = s.replace(POSTCODE_RE, ' ');
  // "Berlin (Germany)" → "Berlin, Germany".
  s = s.replace(/[()[\]]/g, ',');
  let parts = s
    .split(',')
    .map((p) =>
      p
        .replace(/^[\s\-–—:]+|[\s\-–—:]+$/g, '')
        // "Greater Austin Area": both ends.
        .replace(AREA_RE, '')
        .replace(AREA_RE, '')
        // "D.C.", "N.Y.": a dotted code.
        .replace(/^((?:[A-Z]\.){2,3})$/, (m) => m.replace(/\./g, ''))
        // "Dublin 2": a postal district number.
        .replace(/\s+\d{1,2}$/, ''),
    )
    .filter((p) => p && /\p{L}/u.test(p));
  // "USA - CA - San Francisco" or "Germany - Berlin": dash-separated, with no comma.
  if (parts.length === 1 && /\s[-–—]\s/.test(parts[0])) {
    parts = parts[0]
      .split(/\s[-–—]\s/)
      .map((p) => p.trim())
      .filter(Boolean);
    // The country first: "Germany - Berlin", and Workday's "DE - Munich" or "CA - Toronto" (an ISO-2 code).
    if (
      parts.length > 1 &&
      (lookupCountry(parts[0]) || (/^[A-Z]{2}$/.test(parts[0]) && isCountryCode(parts[0])))
    )
      parts.reverse();
  }
  // "US, Minnesota, Maplewood", "PH, Taguig": the country first (a code or a name) and no country last.
  if (parts.length > 1) {
    const head = countryOfPart(parts[0]);
    const last = parts[parts.length - 1];
    if (head && !countryOfPart(last) && !stateCode(last))
      parts = [...parts.slice(1).reverse(), countryName(head)!];
  }
  // "Sydney NSW", "Austin TX": a trailing state code without a comma.
  if (parts.length === 1) {
    const m = /^(.+?)\s+([A-Z]{2,3})$/.exec(parts[0]);
    if (m && (regionByCode(m[2], 'US') || regionByCode(m[2], 'CA') || regionByCode(m[2], 'AU')))
      parts = [m[1], m[2]];
  }
  return parts;
}

/** A house number and street before the place ("200 South College Street", "1650 Market Street"). */
const STREET_RE =
  /^\d+[a-z]?\s+\p{L}.*|^.*\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|place|plaza|parkway|pkwy)\.?$/iu;
const BAY_AREA_RE = /\b(?:(?:san francisco|sf)\s+)?bay\s+area\b/i;

/** ISO-2/3 code (upper case) or English name of a country; undefined otherwise. */
function countryOfPart(p: string): string | undefined {
  if (/^[A-Z]{2}$/.test(p)) return isCountryCode(p) ? p : lookupCountry(p);
  if (/^[A-Z]{3}$/.test(p)) return lookupCountry(p);
  return lookupCountry(p);
}

function stateCode(p: string): boolean {
  return (
    /^[A-Z]{2,3}$/.test(p) && !!(regionByCode(p, 'US') || regionByCode(p, 'CA') || regionByCode(p, 'AU'))
  );
}

/**
 * Workday's code paths, read as "City, ST, Country": "NJ-Parsippany", "USA-WA-Bellevue - 108th Ave",
 * "USA-CA - Promontory A", "Bermuda-Pembroke". Leading codes (and a leading country name) joined by
 * unspaced hyphens, then the city; a site name after " - " is a building, not a place. A hyphenated
 * name whose first word is no code ("Winston-Salem") is no code path.
 */
function codePath(text: string): string | undefined {
  const path = text.trim().split(/\s[-–—]\s/)[0];
  if (!/^\S+-\S/.test(path) || path.includes(',')) return undefined;
  const tokens = path.split('-');
  const codes: string[] = [];
  let i = 0;
  for (; i < tokens.length; i++) {
    const t = tokens[i].trim();
    const isCode = /^[A-Z]{2,3}$/.test(t) && (countryOfPart(t) !== undefined || stateCode(t));
    if (!isCode && !(i === 0 && lookupCountry(t))) break;
    codes.push(t);
  }
  if (!codes.length) return undefined;
  const city = tokens.slice(i).join('-').trim();
  return [city, ...codes.reverse()].filter(Boolean).join(', ');
}

/** A location of one part: a group, a city alias, a country, a region, or a sizeable city. */
function singlePlace(p: string, place: Place): Place | undefined {
  const { zones } = place;
  const key = foldKey(p);
  if (STOP_PLACES.has(key)) return undefined;
  const group = GROUPS[key];
  if (group) return { zones, groupCountries: group.countries, groupContinents: group.continents };
  // A city alias first ("New York" and "NYC" are the city), then a country, a region, a sizeable city.
  if (isCityAlias(p)) {
    const c = cityIn(p);
    if (c) return withCity(place, c);
  }
  if (/^[A-Z]{2}$/.test(p) && stateOrCountry(p)) return { zones, ambiguousCode: p };
  // "UK" is no ISO code but names a country.
  const cc = /^[A-Z]{2}$/.test(p) ? (isCountryCode(p) ? p : lookupCountry(p)) : lookupCountry(p);
  if (cc) {
    place.cc = cc;
    // City-states: "Singapore", "Hong Kong", "Luxembourg" are also their main city.
    const c = cityIn(p, cc, undefined, 50000);
    if (c) withCity(place, c);
    return place;
  }
  const regions = findRegions(p);
  const readings: Place[] = regions.map((r) => {
    const rp: Place = { zones, region: r, cc: r.cc };
    // City-states and capitals named like their region: "Berlin", "Hamburg", "Madrid".
    const c = cityIn(p, r.cc, undefined, 100000);
    return c ? withCity(rp, c) : rp;
  });
  // A sizeable city of the name in a country where it names no region: "Manchester" is the English city
  // before the Jamaican parish; a region wins over a smaller town.
  const cities = findCities(p).filter((c) => !regions.some((r) => r.cc === c.cc));
  for (const c of cities.slice(0, 6)) readings.push(withCity({ zones }, c));
  // Readings with a city of 100,000 or more first, most populous first; then regions; then towns.
  const rank = (x: Place) => (x.city && x.city.pop >= 100000 ? x.city.pop : x.region ? 0 : -1);
  readings.sort((a, b) => rank(b) - rank(a));
  const [first, ...others] = readings;
  if (!first || (!first.region && (first.city?.pop ?? 0) < 15000)) return undefined;
  return others.length ? { ...first, alternatives: others } : first;
}

/** The first part, once the country and regions are read: the city, else what can still be told. */
function readHead(text: string, place: Place): void {
  let head = text;
  const headKey = foldKey(head);
  if (!STOP_PLACES.has(headKey)) {
    // "CA, USA" (what is left of "USA-CA - Promontory A"): a state code, no city.
    if ((place.cc === 'US' || place.cc === 'CA' || place.cc === 'AU') && /^[A-Z]{2,3}$/.test(head)) {
      const r = regionByCode(head, place.cc);
      if (r) {
        place.region ??= r;
        return;
      }
    }
    // "Bangalore Kar": a city followed by an abbreviated region.
    const short = /^(.+?)\s+\p{L}{2,3}\.?$/u.exec(head)?.[1];
    if (short && place.cc && !cityIn(head, place.cc) && cityIn(short, place.cc)) head = short;
    // "California, US": the state, not a small town of that name ("Zug, Switzerland" stays the town).
    const states = place.cc === 'US' || place.cc === 'CA' || place.cc === 'AU';
    const region = states && !place.region ? findRegions(head, place.cc)[0] : undefined;
    if (region && !findCities(head, place.cc).some((c) => c.pop >= 15000)) {
      place.region = region;
      return;
    }
    // Within a known region only: "Washington, DC" is not Washington, Utah.
    const c = place.region?.admin
      ? (cityIn(head, place.cc, place.region.admin) ??
        cityIn(`${head} ${place.region.admin}`, place.cc, place.region.admin))
      : cityIn(head, place.cc, undefined, place.cc ? 0 : 15000);
    if (c) withCity(place, c);
    else if (
      place.region &&
      place.cc &&
      /^[\p{L}][\p{L} .'-]{1,40}$/u.test(head) &&
      !findRegions(head, place.cc)[0]
    ) {
      // A town the gazetteer lacks, in a known state ("Parsippany, NJ"): kept as posted.
      place.cityText = head;
    } else if (!place.cc) {
      // "Bayern, Germany"-like strings were handled above; here "Ontario, Foo": try a region alone.
      const r = findRegions(head)[0];
      if (r) {
        place.region = r;
        place.cc = r.cc;
      }
    } else if (findRegions(head, place.cc)[0]) {
      place.region ??= findRegions(head, place.cc)[0];
    } else if (/^[\p{L}][\p{L} .'-]{1,40}$/u.test(head)) {
      // A town the gazetteer lacks, in a known country: keep it as posted.
      place.cityText = head;
    }
  }
}

function parsePlace(text: string, zones: string[]): Place | undefined {
  const parts = placeParts(text);
  if (!parts.length) return undefined;
  const place: Place = { zones };

  if (parts.length === 1) return singlePlace(parts[0], place);

  // Several parts: read from the right (country, then region, then city).
  let rest = parts.slice();
  const last = rest[rest.length - 1];
  const lastKey = foldKey(last);
  if (
    /^[A-Z]{2,3}$/.test(last) &&
    (regionByCode(last, 'US') || regionByCode(last, 'CA') || regionByCode(last, 'AU'))
  ) {
    // "Austin, TX", "Toronto, ON", "Sydney, NSW", "San Francisco, CA" vs "Toronto, CA".
    const head = rest[0];
    for (const cc of ['US', 'CA', 'AU'] as const) {
      const r = regionByCode(last, cc);
      if (!r) continue;
      const c = cityIn(head, cc, r.admin);
      if (c) {
        place.cc = cc;
        place.region = r;
        return withCity(place, c);
      }
    }
    if (isCountryCode(last)) {
      const c = cityIn(head, last);
      if (c) {
        place.cc = last;
        return withCity(place, c);
      }
    }
    if (stateOrCountry(last)) {
      place.ambiguousCode = last;
      place.cityBeforeAmbiguous = rest.length > 1 ? head : undefined;
      return place;
    }
    const r = regionByCode(last, 'US') ?? regionByCode(last, 'CA') ?? regionByCode(last, 'AU');
    if (r) {
      place.cc = r.cc;
      place.region = r;
    }
    rest = rest.slice(0, -1);
  } else {
    const cc = /^[A-Z]{2}$/.test(last)
      ? isCountryCode(last)
        ? last
        : lookupCountry(last)
      : lookupCountry(last);
    if (cc) {
      place.cc = cc;
      rest = rest.slice(0, -1);
      // "Atlanta, Georgia": a state named like a country, when the city is not in that country.
      if (rest.length && !cityIn(rest[0], cc)) {
        for (const r of findRegions(last)) {
          const c = r.cc !== cc ? cityIn(rest[0], r.cc, r.admin) : undefined;
          if (c) {
            place.cc = r.cc;
            place.region = r;
            return withCity(place, c);
          }
        }
      }
    } else if (GROUPS[lastKey]) {
      place.groupCountries = GROUPS[lastKey].countries;
      place.groupContinents = GROUPS[lastKey].continents;
      rest = rest.slice(0, -1);
    }
  }
  // Middle parts: a region of the country ("Bayern", "California", "Karnataka").
  while (rest.length > 1) {
    const p = rest[rest.length - 1];
    const code = p.toUpperCase();
    const r =
      (place.cc === 'US' || place.cc === 'CA' || place.cc === 'AU') && /^[A-Z]{2,3}$/.test(p)
        ? regionByCode(code, place.cc)
        : findRegions(p, place.cc)[0];
    if (r) {
      place.region ??= r;
      place.cc ??= r.cc;
    } else if (!place.region && place.cc) {
      place.regionText = p;
    }
    rest = rest.slice(0, -1);
  }
  if (rest.length === 1) readHead(rest[0], place);
  return place.cc || place.city || place.region || place.groupContinents ? place : undefined;
}

function withCity(place: Place, c: City): Place {
  place.city = c;
  place.cc ??= c.cc;
  return place;
}

interface Segment {
  remote: boolean;
  hybrid: boolean;
  onsite: boolean;
  place?: Place;
}

function parseSegment(raw: string): Segment {
  let s = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  const remote = REMOTE_RE.test(s) || WORLDWIDE.test(foldKey(s));
  REMOTE_RE.lastIndex = 0;
  const hybrid = HYBRID_RE.test(s);
  HYBRID_RE.lastIndex = 0;
  const onsite = ONSITE_RE.test(s);
  ONSITE_RE.lastIndex = 0;
  const zones: string[] = [];
  if (remote || hybrid) {
    for (const [re, z] of ZONE_WORDS) {
      if (re.test(s)) {
        addUnique(zones, z);
        s = s.replace(re, ' ');
      }
    }
    s = s.replace(REMOTE_RE, ' ').replace(HYBRID_RE, ' ').replace(NOISE_RE, ' ');
  }
  if (onsite) s = s.replace(ONSITE_RE, ' ');
  s = s
    .replace(/\s+/g, ' ')
    .replace(/^[\s,\-–—:/()]+|[\s,\-–—:/()]+$/g, '')
    .replace(/\(\s*\)/g, '');
  let place = s && !MULTI_RE.test(s) ? parsePlace(s, zones) : undefined;
  if (!place && zones.length) place = { zones };
  return { remote, hybrid, onsite, place };
}

const cache = new Map<string, Segment[]>();
const CACHE_MAX = 50_000;

function segmentsOf(raw: string): Segment[] {
  const hit = cache.get(raw);
  if (hit) return hit;
  const parts = raw.split(SPLIT_RE).filter((p) => p?.trim());
  let segs = parts.map(parseSegment);
  // "Remote / Berlin" splits into a remote part and a place: both kept. But "Remote - US / Canada" must
  // keep the remote flag on every place: a flag on any part applies to the string.
  if (segs.length > 1) {
    const remote = segs.some((x) => x.remote);
    const hybrid = segs.some((x) => x.hybrid);
    segs = segs.map((x) => ({
      ...x,
      remote: x.remote || (remote && !x.onsite && !hybrid),
      hybrid: x.hybrid || hybrid,
    }));
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(raw, segs);
  return segs;
}

/** Geocode location strings as posted. Never throws; unknown strings contribute nothing. */
export function geocode(raws: readonly string[], ctx: GeoContext = {}): GeoResult {
  const out: GeoResult = {
    remote: false,
    hybrid: false,
    onsite: false,
    countries: [],
    regions: [],
    cities: [],
    timezones: [],
    continents: [],
    remoteCountries: [],
  };
  const segs: Segment[] = [];
  for (const raw of raws) {
    if (typeof raw !== 'string' || !raw.trim() || raw.length > 500) continue;
    for (const s of segmentsOf(raw)) segs.push(s);
  }
  // Countries known without ambiguity settle "CA" (Canada or California) and "GA", "IN", "DE" alike.
  const known = new Set<string>(ctx.countries ?? []);
  for (const s of segs) {
    if (s.place?.cc && !s.place.alternatives) known.add(s.place.cc);
  }
  for (const s of segs) {
    out.remote ||= s.remote;
    out.hybrid ||= s.hybrid;
    out.onsite ||= s.onsite;
    let p = s.place;
    if (!p) continue;
    if (p.ambiguousCode) p = resolveAmbiguous(p, known, ctx);
    // The payload's own countries before a bare name's first reading elsewhere.
    if (p.alternatives && !(p.cc && known.has(p.cc)))
      p = p.alternatives.find((a) => a.cc && known.has(a.cc)) ?? p;
    for (const z of p.zones) addUnique(out.timezones, z);
    if (p.groupContinents) for (const c of p.groupContinents) addUnique(out.continents, c);
    if (p.groupCountries) {
      for (const cc of p.groupCountries) {
        addUnique(out.countries, cc);
        if (s.remote) addUnique(out.remoteCountries, cc);
      }
    }
    if (!p.cc) continue;
    addUnique(out.countries, p.cc);
    if (s.remote) addUnique(out.remoteCountries, p.cc);
    const regionName = p.region?.name ?? (p.city ? regionOf(p.city) : undefined) ?? p.regionText;
    addUnique(out.regions, regionName);
    if (p.city) {
      addUnique(out.cities, p.city.name);
      addUnique(out.timezones, timezoneOfCity(p.city));
    } else {
      addUnique(out.cities, p.cityText);
      // A remote role restricted to a country takes the zones named, if any, not the whole country's.
      if (!p.zones.length) {
        const zones = p.region ? timezonesOf(p.cc, p.region.name) : [];
        for (const z of zones.length ? zones : timezonesOf(p.cc)) addUnique(out.timezones, z);
      }
    }
  }
  for (const cc of out.countries) addUnique(out.continents, continentOfCountry(cc));
  return out;
}

/** A resolved copy of a place whose "XX" may be a country or a US state (cached places stay as parsed). */
function resolveAmbiguous(ambiguous: Place, known: Set<string>, ctx: GeoContext): Place {
  const p: Place = { ...ambiguous };
  const code = p.ambiguousCode!;
  // The state reading wins when the posting is otherwise in the US or paid in dollars; the country
  // reading when the country itself is named or the currency is its own.
  const usContext = known.has('US') || ctx.currency === 'USD';
  const countryContext = known.has(code) || (code === 'CA' && ctx.currency === 'CAD');
  const asState = usContext && !countryContext;
  if (asState) {
    p.cc = 'US';
    p.region = regionByCode(code, 'US');
    if (p.cityBeforeAmbiguous) {
      const c = cityIn(p.cityBeforeAmbiguous, 'US', code);
      if (c) p.city = c;
    }
  } else {
    p.cc = code;
    if (p.cityBeforeAmbiguous) {
      const c = cityIn(p.cityBeforeAmbiguous, code);
      if (c) p.city = c;
    }
  }
  p.ambiguousCode = undefined;
  return p;
}

/** Full English country names of ISO-2 codes, dropping unknown codes. */
export function countryNames(codes: readonly string[]): string[] {
  const out: string[] = [];
  for (const c of codes) addUnique(out, countryName(c));
  return out;
}
