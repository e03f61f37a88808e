import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/demo/generate.ts';
import { enrichPosting } from '../../src/enrich/posting.ts';
import { continentOfCountry, toCountryCode } from '../../src/geo/countries.ts';
import { countriesOfZone } from '../../src/geo/gazetteer.ts';
import type { LocationInput, PostingRecord } from '../../src/model/record.ts';

const base: PostingRecord = {
  id: 'x:1',
  source: 'workday',
  title: 'Engineer',
  company: { name: 'Acme' },
  url: 'https://a.example/1',
};

interface Case {
  name: string;
  location: LocationInput;
  countries: string[];
  cities: string[] | null;
  regions: string[] | null;
  timezones: string[];
  continent: string;
  continents: string[];
}

// Location shapes as the adapters pass them: a country per location or only the first one, cities with
// their state, Workday's "CC - City", English region names.
const CASES: Case[] = [
  {
    name: 'Workday: the first location country given, the second only in a string',
    location: { raw: ['Toronto, ON, Canada', 'Austin, TX, United States'], countries: ['Canada'] },
    countries: ['Canada', 'United States'],
    cities: ['Toronto', 'Austin'],
    regions: ['Ontario', 'Texas'],
    timezones: ['America/Toronto', 'America/Chicago'],
    continent: 'North America',
    continents: ['North America'],
  },
  {
    name: 'Workday "CC - City" strings',
    location: { raw: ['DE - Munich', 'AT - Vienna'] },
    countries: ['Germany', 'Austria'],
    cities: ['Munich', 'Vienna'],
    regions: ['Bayern', 'Wien'],
    timezones: ['Europe/Berlin', 'Europe/Vienna'],
    continent: 'Europe',
    continents: ['Europe'],
  },
  {
    name: 'Ashby / Workable: a country and city per location, the strings agreeing',
    location: {
      raw: ['Berlin, Germany', 'Paris, France'],
      countries: ['Germany', 'France'],
      cities: ['Berlin', 'Paris'],
    },
    countries: ['Germany', 'France'],
    cities: ['Berlin', 'Paris'],
    regions: ['Berlin', 'Île-de-France'],
    timezones: ['Europe/Berlin', 'Europe/Paris'],
    continent: 'Europe',
    continents: ['Europe'],
  },
  {
    name: 'multi-continent: the first location names the continent, every continent is filterable',
    location: { raw: ['London, United Kingdom', 'New York, NY'], countries: ['GB'] },
    countries: ['United Kingdom', 'United States'],
    cities: ['London', 'New York City'],
    regions: ['England', 'New York'],
    timezones: ['Europe/London', 'America/New_York'],
    continent: 'Europe',
    continents: ['Europe', 'North America'],
  },
  {
    name: 'JSON-LD addressLocality carrying its state ("City, ST")',
    location: { raw: ['Austin, TX, US'], countries: ['United States'], cities: ['Austin, TX'] },
    countries: ['United States'],
    cities: ['Austin'],
    regions: ['Texas'],
    timezones: ['America/Chicago'],
    continent: 'North America',
    continents: ['North America'],
  },
  {
    name: 'a given city spelled differently from the gazetteer is not repeated',
    location: { raw: ['Munich, Germany'], countries: ['DE'], cities: ['München'] },
    countries: ['Germany'],
    cities: ['München'],
    regions: ['Bayern'],
    timezones: ['Europe/Berlin'],
    continent: 'Europe',
    continents: ['Europe'],
  },
  {
    name: 'English region names',
    location: { raw: ['Bavaria, Germany', 'Catalonia'] },
    countries: ['Germany', 'Spain'],
    cities: null,
    regions: ['Bayern', 'Cataluña'],
    timezones: ['Europe/Berlin', 'Europe/Madrid'],
    continent: 'Europe',
    continents: ['Europe'],
  },
  {
    name: 'countries given without strings still get zones and continents',
    location: { remote: true, raw: ['Remote - Europe'], countries: ['Portugal', 'Poland'] },
    countries: ['Portugal', 'Poland'],
    cities: null,
    regions: null,
    timezones: ['Europe/Lisbon', 'Atlantic/Madeira', 'Europe/Warsaw'],
    continent: 'Europe',
    continents: ['Europe'],
  },
];

describe('location of multi-location postings', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const e = enrichPosting({ ...base, location: c.location });
      expect(e.location.countries).toEqual(c.countries);
      expect(e.location.cities).toEqual(c.cities);
      expect(e.location.regions).toEqual(c.regions);
      expect(e.location.timezones).toEqual(c.timezones);
      expect(e.location.continent).toBe(c.continent);
      expect(e.continents).toEqual(c.continents);
    });
  }

  it('generated postings: every country has a zone and its continent', () => {
    let checked = 0;
    for (const line of generateDataset({ jobs: 400, seed: 3, now: new Date('2026-06-01T00:00:00Z') })) {
      if (line.kind !== 'posting') continue;
      const e = enrichPosting(line);
      const zoneCountries = new Set(e.location.timezones.flatMap((z) => countriesOfZone(z)));
      for (const name of e.location.countries) {
        const cc = toCountryCode(name)!;
        expect(zoneCountries.has(cc), `${line.id} ${name} ${e.location.timezones}`).toBe(true);
        expect(e.continents).toContain(continentOfCountry(cc));
      }
      expect(e.continents[0]).toBe(e.location.continent);
      checked++;
    }
    expect(checked).toBe(400);
  });
});
