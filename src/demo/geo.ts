// Where the generated jobs are: countries weighted like real postings, cities from the city-timezones
// gazetteer (≈7,300 cities with province, population and IANA zone; loads in ~30 ms), zones checked
// against countries-and-timezones, English country names as the service renders them.
import { createRequire } from 'node:module';
import ct from 'countries-and-timezones';
import { countryName } from '../geo/countries.ts';
import { type Rng, Weighted } from './prng.ts';

const require = createRequire(import.meta.url);

interface GazetteerCity {
  city: string;
  pop: number;
  iso2: string;
  province?: string;
  state_ansi?: string;
  timezone: string | null;
}

export interface CountryInfo {
  code: string;
  /** English name as countryName() renders it. */
  name: string;
  continent: string;
  currency: string;
  /** Local currency units per USD, rounded (only to scale salaries plausibly). */
  fx: number;
  /** Pay level relative to the US for the same role. */
  pay: number;
  /** Share of postings with a structured salary (pay-transparency laws make it high in the US). */
  salaryShare: number;
  /** Non-English posting language and its share, when any. */
  lang?: { code: 'de' | 'fr' | 'es'; share: number };
  /** Usual pay unit besides YEAR for salaried roles. */
  monthly?: boolean;
}

// [code, posting weight %, continent, currency, fx, pay, salary share, language]
const TABLE: [string, number, string, string, number, number, number, CountryInfo['lang']?, boolean?][] = [
  ['US', 45, 'North America', 'USD', 1, 1, 0.45],
  ['GB', 8, 'Europe', 'GBP', 0.79, 0.62, 0.4],
  ['DE', 6, 'Europe', 'EUR', 0.92, 0.62, 0.18, { code: 'de', share: 0.45 }],
  ['IN', 6, 'Asia', 'INR', 83, 0.16, 0.22],
  ['CA', 5, 'North America', 'CAD', 1.36, 0.72, 0.42, { code: 'fr', share: 0.08 }],
  ['FR', 4, 'Europe', 'EUR', 0.92, 0.55, 0.24, { code: 'fr', share: 0.55 }],
  ['NL', 3, 'Europe', 'EUR', 0.92, 0.6, 0.3],
  ['AU', 3, 'Oceania', 'AUD', 1.52, 0.75, 0.4],
  ['ES', 2.5, 'Europe', 'EUR', 0.92, 0.42, 0.2, { code: 'es', share: 0.55 }, true],
  ['IE', 1.5, 'Europe', 'EUR', 0.92, 0.65, 0.25],
  ['PL', 1.5, 'Europe', 'PLN', 4, 0.35, 0.45, undefined, true],
  ['SG', 1.2, 'Asia', 'SGD', 1.35, 0.7, 0.25, undefined, true],
  ['BR', 1.2, 'South America', 'BRL', 5, 0.25, 0.15, undefined, true],
  ['MX', 1, 'North America', 'MXN', 17, 0.22, 0.2, { code: 'es', share: 0.6 }, true],
  ['IT', 1, 'Europe', 'EUR', 0.92, 0.45, 0.15],
  ['CH', 1, 'Europe', 'CHF', 0.9, 0.95, 0.15, { code: 'de', share: 0.35 }],
  ['SE', 0.9, 'Europe', 'SEK', 10.5, 0.55, 0.15, undefined, true],
  ['JP', 0.8, 'Asia', 'JPY', 150, 0.5, 0.3],
  ['AT', 0.6, 'Europe', 'EUR', 0.92, 0.55, 0.6, { code: 'de', share: 0.6 }],
  ['BE', 0.6, 'Europe', 'EUR', 0.92, 0.55, 0.15, { code: 'fr', share: 0.3 }],
  ['PT', 0.6, 'Europe', 'EUR', 0.92, 0.32, 0.2, undefined, true],
  ['DK', 0.5, 'Europe', 'DKK', 6.9, 0.65, 0.15, undefined, true],
  ['IL', 0.5, 'Asia', 'ILS', 3.7, 0.55, 0.1, undefined, true],
  ['AE', 0.5, 'Asia', 'AED', 3.67, 0.6, 0.2, undefined, true],
  ['PH', 0.5, 'Asia', 'PHP', 56, 0.12, 0.3, undefined, true],
  ['CZ', 0.4, 'Europe', 'CZK', 23, 0.32, 0.3, undefined, true],
  ['ZA', 0.4, 'Africa', 'ZAR', 18.5, 0.25, 0.2, undefined, true],
  ['AR', 0.4, 'South America', 'ARS', 850, 0.15, 0.1, { code: 'es', share: 0.65 }, true],
  ['FI', 0.3, 'Europe', 'EUR', 0.92, 0.55, 0.15, undefined, true],
  ['NO', 0.3, 'Europe', 'NOK', 10.6, 0.7, 0.15, undefined, true],
  ['RO', 0.3, 'Europe', 'RON', 4.6, 0.25, 0.2, undefined, true],
  ['NZ', 0.3, 'Oceania', 'NZD', 1.65, 0.62, 0.4],
  ['CO', 0.3, 'South America', 'COP', 3900, 0.15, 0.15, { code: 'es', share: 0.65 }, true],
  ['CL', 0.2, 'South America', 'CLP', 940, 0.2, 0.15, { code: 'es', share: 0.65 }, true],
  ['KR', 0.2, 'Asia', 'KRW', 1330, 0.45, 0.1],
  ['HK', 0.2, 'Asia', 'HKD', 7.8, 0.6, 0.2, undefined, true],
  ['NG', 0.2, 'Africa', 'NGN', 1500, 0.08, 0.1, undefined, true],
  ['KE', 0.2, 'Africa', 'KES', 130, 0.08, 0.1, undefined, true],
  ['EG', 0.1, 'Africa', 'EGP', 48, 0.07, 0.1, undefined, true],
  ['TR', 0.2, 'Asia', 'TRY', 32, 0.15, 0.1, undefined, true],
];

export const COUNTRIES: CountryInfo[] = TABLE.map(
  ([code, , continent, currency, fx, pay, salaryShare, lang, monthly]) => ({
    code,
    name: countryName(code)!,
    continent,
    currency,
    fx,
    pay,
    salaryShare,
    lang,
    monthly,
  }),
);
export const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
export const countryPicker = new Weighted(
  COUNTRIES,
  TABLE.map((t) => t[1]),
);

export interface City {
  name: string;
  region: string | null;
  /** US/CA/AU state abbreviation for "Austin, TX". */
  regionShort: string | null;
  timezone: string;
  country: CountryInfo;
}

// Where the gazetteer is out of date or names a borough rather than a region.
const REGION_FIX: Record<string, string> = {
  'GB/London': 'England',
  'IN/Hyderabad': 'Telangana',
  'IN/Ahmedabad': 'Gujarat',
};
const CA_SHORT: Record<string, string> = {
  Ontario: 'ON',
  Québec: 'QC',
  'British Columbia': 'BC',
  Alberta: 'AB',
  Manitoba: 'MB',
  Saskatchewan: 'SK',
  'Nova Scotia': 'NS',
  'New Brunswick': 'NB',
  'Newfoundland and Labrador': 'NL',
  'Prince Edward Island': 'PE',
};
const AU_SHORT: Record<string, string> = {
  'New South Wales': 'NSW',
  Victoria: 'VIC',
  Queensland: 'QLD',
  'Western Australia': 'WA',
  'South Australia': 'SA',
  Tasmania: 'TAS',
  'Australian Capital Territory': 'ACT',
  'Northern Territory': 'NT',
};
// Hiring hubs get more postings than their population alone would give.
const HUBS: Record<string, number> = {
  'US/San Francisco': 4,
  'US/Seattle': 2.5,
  'US/Austin': 3,
  'US/Boston': 1.8,
  'US/New York': 1.6,
  'US/San Jose': 2,
  'US/Denver': 1.5,
  'US/Atlanta': 1.3,
  'US/Raleigh': 1.8,
  'US/Washington': 1.5,
  'IN/Bengaluru': 3,
  'IN/Pune': 1.5,
  'IN/Hyderabad': 1.8,
  'DE/Berlin': 2,
  'DE/Munich': 2,
  'GB/London': 2.5,
  'GB/Manchester': 1.5,
  'GB/Edinburgh': 1.6,
  'GB/Cambridge': 2,
  'NL/Amsterdam': 2.5,
  'FR/Paris': 2,
  'CA/Toronto': 1.5,
  'CA/Vancouver': 1.3,
  'ES/Madrid': 1.3,
  'ES/Barcelona': 1.3,
  'AU/Sydney': 1.3,
  'IE/Dublin': 2,
};
// How many of each country's largest cities to use (postings concentrate in metro areas).
const CITY_CAP = 60;
const US_CITY_CAP = 180;

// The gazetteer's own zone names are kept (Europe/Stockholm rather than the Europe/Berlin it was merged
// into in 2022), as the geocoder does; only missing or foreign zones fall back to the country's first.
function validZone(zone: string | null, code: string): string {
  if (zone) {
    const info = ct.getTimezone(zone);
    if (info?.countries.includes(code as never)) return zone;
  }
  return ct.getCountry(code as never)?.timezones[0] ?? 'UTC';
}

const citiesByCountry = new Map<string, Weighted<City>>();
{
  const all = require('city-timezones/data/cityMap.json') as GazetteerCity[];
  const grouped = new Map<string, GazetteerCity[]>();
  for (const c of all) {
    if (!COUNTRY_BY_CODE.has(c.iso2) || !c.city) continue;
    const list = grouped.get(c.iso2);
    if (list) list.push(c);
    else grouped.set(c.iso2, [c]);
  }
  for (const [code, list] of grouped) {
    const country = COUNTRY_BY_CODE.get(code)!;
    list.sort((a, b) => b.pop - a.pop || a.city.localeCompare(b.city));
    const seen = new Set<string>();
    const cities: City[] = [];
    const weights: number[] = [];
    for (const g of list) {
      if (cities.length >= (code === 'US' ? US_CITY_CAP : CITY_CAP)) break;
      if (seen.has(g.city)) continue;
      seen.add(g.city);
      const key = `${code}/${g.city}`;
      const region =
        REGION_FIX[key] ?? (g.province && g.province !== g.city ? g.province : g.province || null);
      const short =
        code === 'US'
          ? (g.state_ansi ?? null)
          : code === 'CA'
            ? (CA_SHORT[region ?? ''] ?? null)
            : code === 'AU'
              ? (AU_SHORT[region ?? ''] ?? null)
              : null;
      cities.push({
        name: g.city,
        region: region || null,
        regionShort: short,
        timezone: validZone(g.timezone, code),
        country,
      });
      // Flatter than population: small cities still post, big metros dominate.
      weights.push(g.pop ** 0.75 * (HUBS[key] ?? 1));
    }
    citiesByCountry.set(code, new Weighted(cities, weights));
  }
}

export function pickCity(rng: Rng, country: CountryInfo): City {
  return citiesByCountry.get(country.code)!.pick(rng);
}

const mainZones = new Map<string, string[]>();
/** The zones where a country's postings are (of its largest cities), for remote roles. */
export function countryZones(code: string): string[] {
  let z = mainZones.get(code);
  if (!z) {
    const cities = citiesByCountry.get(code)!.items.slice(0, 40);
    z = [...new Set(cities.map((c) => c.timezone))].slice(0, 6);
    mainZones.set(code, z);
  }
  return z;
}

/** "Austin, TX" / "Berlin, Germany" / "Toronto, ON, Canada" / "London, England, United Kingdom". */
export function rawLocation(rng: Rng, city: City): string {
  const c = city.country;
  if (c.code === 'US')
    return city.regionShort ? `${city.name}, ${city.regionShort}` : `${city.name}, United States`;
  const style = rng.next();
  if ((c.code === 'CA' || c.code === 'AU') && city.regionShort && style < 0.6)
    return `${city.name}, ${city.regionShort}, ${c.name}`;
  if (city.region && city.region !== city.name && style < 0.25)
    return `${city.name}, ${city.region}, ${c.name}`;
  return `${city.name}, ${c.name}`;
}
