// Countries: ISO 3166-1 alpha-2 codes and their English names, from i18n-iso-countries.
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

// Common short names ("United States", "Russia"), except where the alias is an abbreviation or ambiguous.
const OFFICIAL = new Set(['AE', 'AX', 'CD', 'CG', 'CI', 'GB', 'KR', 'NL']);
const official = countries.getNames('en', { select: 'official' }) as Record<string, string>;
const alias = countries.getNames('en', { select: 'alias' }) as Record<string, string>;
const names: Record<string, string> = {};
for (const code of Object.keys(official)) names[code] = OFFICIAL.has(code) ? official[code] : alias[code];
const byLowerName = new Map<string, string>();
for (const [code, name] of Object.entries(names)) byLowerName.set(name.toLowerCase(), code);
// Every alias the package knows ("United States of America", "USA", …).
for (const [code, list] of Object.entries(
  countries.getNames('en', { select: 'all' }) as Record<string, string[]>,
)) {
  for (const n of list) if (!byLowerName.has(n.toLowerCase())) byLowerName.set(n.toLowerCase(), code);
}

/** The English display name of an ISO-2 code ("US" → "United States"). */
export function countryName(code: string): string | undefined {
  return names[code.toUpperCase()];
}

/** ISO-2 code for a full name or an ISO-2 code, case-insensitively; undefined when unknown. */
export function toCountryCode(input: string): string | undefined {
  const s = input.trim();
  if (/^[A-Za-z]{2}$/.test(s)) return names[s.toUpperCase()] ? s.toUpperCase() : undefined;
  return byLowerName.get(s.toLowerCase());
}

export function isCountryCode(code: string): boolean {
  return names[code] !== undefined;
}

// Continent of each ISO-2 code, following the GeoNames country table (Russia in Europe, Turkey and the
// Caucasus in Asia, Egypt in Africa, Central America and the Caribbean in North America).
const CONTINENT_MEMBERS: Record<string, string> = {
  Africa:
    'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG MW ML MR MU YT MA ' +
    'MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TZ TG TN UG EH ZM ZW',
  Asia:
    'AF AM AZ BH BD BT IO BN KH CN CX CC GE HK IN ID IR IQ IL JP JO KZ KW KG LA LB MO MY MV MN MM NP KP OM PK PS ' +
    'PH QA SA SG KR LK SY TW TJ TH TL TR TM AE UZ VN YE',
  Europe:
    'AX AL AD AT BY BE BA BG HR CY CZ DK EE FO FI FR DE GI GR GG VA HU IS IE IM IT JE XK LV LI LT LU MT MD MC ME ' +
    'NL MK NO PL PT RO RU SM RS SK SI ES SJ SE CH UA GB',
  'North America':
    'AI AG AW BS BB BZ BM BQ VG CA KY CR CU CW DM DO SV GL GD GP GT HT HN JM MQ MX MS NI PA PR BL KN LC MF PM VC ' +
    'SX TT TC US VI',
  'South America': 'AR BO BR CL CO EC FK GF GY PY PE SR UY VE',
  Oceania: 'AS AU CK FJ PF GU KI MH FM NR NC NZ NU NF MP PW PG PN WS SB TK TO TV VU WF UM',
  Antarctica: 'AQ BV GS HM TF',
};
const continentByCode = new Map<string, string>();
for (const [continent, list] of Object.entries(CONTINENT_MEMBERS)) {
  for (const code of list.split(' ')) continentByCode.set(code, continent);
}

/** The continent (one of the spec's seven values) of an ISO-2 code; undefined when unknown. */
export function continentOfCountry(code: string): string | undefined {
  return continentByCode.get(code.toUpperCase());
}

// Names as they appear in postings but not in the English lists: native names from the package's other
// locales ("Deutschland", "España", "Schweiz") and common abbreviations. Kept apart from toCountryCode so
// the API's `country` filter stays on English names and ISO-2 codes.
const LOCAL_LOCALES = ['de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'ro', 'tr'];
for (const l of LOCAL_LOCALES) countries.registerLocale(require(`i18n-iso-countries/langs/${l}.json`));
const looseNames = new Map<string, string>();
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.\u2019']/g, '')
    .replace(/\s+/g, ' ')
    .trim();
for (const [name, code] of byLowerName) looseNames.set(fold(name), code);
for (const l of LOCAL_LOCALES) {
  for (const [code, list] of Object.entries(
    countries.getNames(l, { select: 'all' }) as Record<string, string[]>,
  )) {
    for (const n of list) {
      const k = fold(n);
      // English names win over a foreign spelling that happens to collide with one.
      if (k.length > 2 && !looseNames.has(k)) looseNames.set(k, code);
    }
  }
}
const EXTRA: Record<string, string> = {
  uk: 'GB',
  'u k': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'great britain': 'GB',
  usa: 'US',
  'u s': 'US',
  'u s a': 'US',
  us: 'US',
  america: 'US',
  'united states': 'US',
  uae: 'AE',
  emirates: 'AE',
  holland: 'NL',
  'the netherlands': 'NL',
  'south korea': 'KR',
  korea: 'KR',
  'czech republic': 'CZ',
  czechia: 'CZ',
  russia: 'RU',
  turkiye: 'TR',
  'ivory coast': 'CI',
  vietnam: 'VN',
  'hong kong sar': 'HK',
  'macau sar': 'MO',
  taiwan: 'TW',
  'mainland china': 'CN',
  prc: 'CN',
  ksa: 'SA',
  deutschland: 'DE',
  brasil: 'BR',
  mexico: 'MX',
  'republic of ireland': 'IE',
  eire: 'IE',
};
for (const [k, code] of Object.entries(EXTRA)) looseNames.set(k, code);
const ISO3 = new Map<string, string>();
for (const code of Object.keys(names)) {
  const a3 = countries.alpha2ToAlpha3(code);
  if (a3) ISO3.set(a3, code);
}

/**
 * Looser lookup for free-text locations: English and native names, abbreviations ("UK", "U.S.A."),
 * and upper-case ISO-3 codes ("DEU"). Two-letter input is not treated as a code here: in a location
 * string "CA" or "IN" may be a state, which the geocoder decides with context.
 */
export function lookupCountry(input: string): string | undefined {
  const s = input.trim();
  if (/^[A-Z]{3}$/.test(s) && ISO3.has(s)) return ISO3.get(s);
  return looseNames.get(fold(s));
}

/** All known ISO-2 codes. */
export function allCountryCodes(): string[] {
  return Object.keys(names);
}
