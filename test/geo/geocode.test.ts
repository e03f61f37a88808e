import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryNames, geocode } from '../../src/geo/geocode.ts';

interface Expect {
  countries: string[];
  cities?: string[];
  regions?: string[];
  remote?: boolean;
  hybrid?: boolean;
  timezones?: string[];
  continents?: string[];
}

const CASES: [string[], Expect][] = [
  [
    ['NYC'],
    {
      countries: ['United States'],
      cities: ['New York City'],
      regions: ['New York'],
      timezones: ['America/New_York'],
    },
  ],
  [
    ['San Francisco, CA'],
    {
      countries: ['United States'],
      cities: ['San Francisco'],
      regions: ['California'],
      timezones: ['America/Los_Angeles'],
    },
  ],
  [
    ['Toronto, CA'],
    { countries: ['Canada'], cities: ['Toronto'], regions: ['Ontario'], timezones: ['America/Toronto'] },
  ],
  [['Remote'], { countries: [], remote: true }],
  [['Hybrid (Berlin)'], { countries: ['Germany'], cities: ['Berlin'], regions: ['Berlin'], hybrid: true }],
  [
    ['London, UK'],
    { countries: ['United Kingdom'], cities: ['London'], regions: ['England'], timezones: ['Europe/London'] },
  ],
  [
    ['München, Bayern, Deutschland'],
    { countries: ['Germany'], cities: ['Munich'], regions: ['Bayern'], timezones: ['Europe/Berlin'] },
  ],
  [
    ['Berlin; Paris'],
    {
      countries: ['Germany', 'France'],
      cities: ['Berlin', 'Paris'],
      timezones: ['Europe/Berlin', 'Europe/Paris'],
    },
  ],
  [['2 Locations'], { countries: [], cities: [] }],
  [
    ['Austin, TX'],
    { countries: ['United States'], cities: ['Austin'], regions: ['Texas'], timezones: ['America/Chicago'] },
  ],
  [['Remote - US'], { countries: ['United States'], remote: true }],
  [['US-Remote'], { countries: ['United States'], remote: true }],
  [['Remote (US)'], { countries: ['United States'], remote: true }],
  [
    ['Bengaluru, Karnataka, India'],
    { countries: ['India'], cities: ['Bengaluru'], regions: ['Karnataka'], timezones: ['Asia/Kolkata'] },
  ],
  [['Bangalore'], { countries: ['India'], cities: ['Bengaluru'] }],
  [
    ['New York, NY 10001'],
    { countries: ['United States'], cities: ['New York City'], regions: ['New York'] },
  ],
  [
    ['São Paulo, SP, Brasil'],
    { countries: ['Brazil'], cities: ['São Paulo'], continents: ['South America'] },
  ],
  [['Zürich, Switzerland'], { countries: ['Switzerland'], cities: ['Zürich'], timezones: ['Europe/Zurich'] }],
  [['Tel Aviv-Yafo, Israel'], { countries: ['Israel'], cities: ['Tel Aviv'], timezones: ['Asia/Jerusalem'] }],
  [
    ['Washington, DC'],
    {
      countries: ['United States'],
      cities: ['Washington, D.C.'],
      regions: ['District of Columbia'],
      timezones: ['America/New_York'],
    },
  ],
  [['Paris, TX'], { countries: ['United States'], cities: ['Paris'], regions: ['Texas'] }],
  [['Cambridge, MA'], { countries: ['United States'], cities: ['Cambridge'], regions: ['Massachusetts'] }],
  [
    ['Vancouver, BC'],
    {
      countries: ['Canada'],
      cities: ['Vancouver'],
      regions: ['British Columbia'],
      timezones: ['America/Vancouver'],
    },
  ],
  [
    ['Vancouver, WA'],
    {
      countries: ['United States'],
      cities: ['Vancouver'],
      regions: ['Washington'],
      timezones: ['America/Los_Angeles'],
    },
  ],
  [['Dublin 2, Ireland'], { countries: ['Ireland'], cities: ['Dublin'], timezones: ['Europe/Dublin'] }],
  [
    ['Singapore'],
    { countries: ['Singapore'], cities: ['Singapore'], timezones: ['Asia/Singapore'], continents: ['Asia'] },
  ],
  [
    ['Sydney NSW'],
    { countries: ['Australia'], cities: ['Sydney'], regions: ['New South Wales'], continents: ['Oceania'] },
  ],
  [['Melbourne, VIC, Australia'], { countries: ['Australia'], cities: ['Melbourne'], regions: ['Victoria'] }],
  [['Atlanta, Georgia'], { countries: ['United States'], cities: ['Atlanta'], regions: ['Georgia'] }],
  [['Tbilisi, Georgia'], { countries: ['Georgia'], cities: ['Tbilisi'], continents: ['Asia'] }],
  [['Georgia'], { countries: ['Georgia'] }],
  [
    ['USA - CA - San Francisco'],
    { countries: ['United States'], cities: ['San Francisco'], regions: ['California'] },
  ],
  [['Greater London'], { countries: ['United Kingdom'], cities: ['London'] }],
  [['Palo Alto'], { countries: ['United States'], cities: ['Palo Alto'], regions: ['California'] }],
  [['Unterföhring, Germany'], { countries: ['Germany'], cities: ['Unterföhring'] }],
  [['Headquarters'], { countries: [] }],
  [['Remote in Germany'], { countries: ['Germany'], remote: true, timezones: ['Europe/Berlin'] }],
  [['Home office, Deutschland'], { countries: ['Germany'], remote: true }],
  [['DACH'], { countries: ['Germany', 'Austria', 'Switzerland'], continents: ['Europe'] }],
  [
    ['Remote - US East Coast (EST)'],
    { countries: ['United States'], remote: true, timezones: ['America/New_York'] },
  ],
  [['Remote (CET ± 2h)'], { countries: [], remote: true, timezones: ['Europe/Berlin'] }],
  [['Remote - EMEA'], { countries: [], remote: true, continents: ['Europe', 'Africa', 'Asia'] }],
  [['Anywhere'], { countries: [], remote: true }],
  [
    ['Manchester, England, United Kingdom'],
    { countries: ['United Kingdom'], cities: ['Manchester'], regions: ['England'] },
  ],
  [['Kraków, Poland'], { countries: ['Poland'], cities: ['Kraków'], timezones: ['Europe/Warsaw'] }],
  [['Frankfurt'], { countries: ['Germany'], cities: ['Frankfurt am Main'], regions: ['Hessen'] }],
  [['Indianapolis, IN'], { countries: ['United States'], cities: ['Indianapolis'], regions: ['Indiana'] }],
  [['IN'], { countries: ['India'] }],
  [['Berlin/Munich'], { countries: ['Germany'], cities: ['Berlin', 'Munich'] }],
  [
    ['Madrid, Comunidad de Madrid, España'],
    { countries: ['Spain'], cities: ['Madrid'], regions: ['Comunidad de Madrid'] },
  ],
  [
    ['Paris, Île-de-France, France'],
    { countries: ['France'], cities: ['Paris'], regions: ['Île-de-France'] },
  ],
  [['Stockholm, Sweden'], { countries: ['Sweden'], cities: ['Stockholm'], timezones: ['Europe/Stockholm'] }],
  [['Remote – Canada'], { countries: ['Canada'], remote: true }],
  [['Toronto, ON'], { countries: ['Canada'], cities: ['Toronto'], regions: ['Ontario'] }],
];

describe('geocode: location strings as posted', () => {
  it.each(CASES)('%j', (raw, want) => {
    const g = geocode(raw);
    expect(countryNames(g.countries)).toEqual(want.countries);
    if (want.cities) expect(g.cities).toEqual(want.cities);
    if (want.regions) expect(g.regions).toEqual(want.regions);
    expect(g.remote).toBe(want.remote ?? false);
    expect(g.hybrid).toBe(want.hybrid ?? false);
    if (want.timezones) expect(g.timezones).toEqual(want.timezones);
    if (want.continents) expect(g.continents).toEqual(want.continents);
  });

  it('"Remote – EU" allows the 27 member states, in Europe', () => {
    const g = geocode(['Remote – EU']);
    expect(g.remote).toBe(true);
    expect(g.remoteCountries).toHaveLength(27);
    expect(g.remoteCountries).toContain('DE');
    expect(g.remoteCountries).not.toContain('GB');
    expect(g.continents).toEqual(['Europe']);
  });

  it('a country-wide remote role lists the main zones of the country', () => {
    expect(geocode(['Remote - US']).timezones.slice(0, 3)).toEqual([
      'America/New_York',
      'America/Chicago',
      'America/Los_Angeles',
    ]);
  });

  it('"CA" alone is Canada; with a US neighbour or a USD salary it is California', () => {
    expect(countryNames(geocode(['CA']).countries)).toEqual(['Canada']);
    const withUs = geocode(['CA', 'Los Angeles, CA']);
    expect(countryNames(withUs.countries)).toEqual(['United States']);
    expect(withUs.regions).toEqual(['California']);
    const byCurrency = geocode(['CA'], { currency: 'USD' });
    expect(byCurrency.regions).toEqual(['California']);
    expect(countryNames(geocode(['CA'], { currency: 'CAD' }).countries)).toEqual(['Canada']);
  });

  it('Workday code paths: "ST-City", "CC-ST-City - site", "CC-ST - site", "Country-City"; hyphenated names stay whole', () => {
    const read = (raw: string, countries: string[] = []) => {
      const g = geocode([raw], { countries });
      return [countryNames(g.countries), g.regions, g.cities];
    };
    expect(read('NJ-Jersey City', ['US'])).toEqual([['United States'], ['New Jersey'], ['Jersey City']]);
    expect(read('GA-Atlanta', ['US'])).toEqual([['United States'], ['Georgia'], ['Atlanta']]);
    expect(read('USA-WA-Bellevue - 108th Ave')).toEqual([['United States'], ['Washington'], ['Bellevue']]);
    expect(read('USA-CA - Promontory A')).toEqual([['United States'], ['California'], []]);
    expect(read('Winston-Salem, NC')).toEqual([['United States'], ['North Carolina'], ['Winston-Salem']]);
    // A town the gazetteer lacks, in a known state, is kept as posted.
    expect(read('NJ-Qwertyville', ['US'])).toEqual([['United States'], ['New Jersey'], ['Qwertyville']]);
  });

  it('"Country, Region, City" and "CC, City" read country first; a street address is no city', () => {
    const g = geocode(['US, Minnesota, Maplewood']);
    expect([countryNames(g.countries), g.regions, g.cities]).toEqual([
      ['United States'],
      ['Minnesota'],
      ['Maplewood'],
    ]);
    expect(countryNames(geocode(['IN, Bangalore Kar']).countries)).toEqual(['India']);
    expect(geocode(['IN, Bangalore Kar']).regions).toEqual(['Karnataka']);
    const street = geocode(['1271 Avenue of the Americas, New York, NY, USA']);
    expect([street.regions, street.cities]).toEqual([['New York'], ['New York City']]);
    expect(geocode(['200 South College Street, Charlotte, NC, USA']).cities).toEqual(['Charlotte']);
    expect(geocode(['US - Bay Area']).regions).toEqual(['California']);
    expect(geocode(['US - Bay Area']).cities).toEqual([]);
  });

  it("a bare name: the payload's own countries first, else the sizeable city before a region elsewhere", () => {
    // Manchester: an English city, a Jamaican parish, a town in New Hampshire.
    expect(countryNames(geocode(['Manchester']).countries)).toEqual(['United Kingdom']);
    expect(geocode(['Manchester']).cities).toEqual(['Manchester']);
    expect(countryNames(geocode(['Manchester'], { countries: ['GB'] }).countries)).toEqual([
      'United Kingdom',
    ]);
    expect(countryNames(geocode(['Manchester'], { countries: ['JM'] }).countries)).toEqual(['Jamaica']);
    expect(countryNames(geocode(['Manchester'], { countries: ['US'] }).countries)).toEqual(['United States']);
    // "MA" after "Remote": Morocco alone, Massachusetts for a posting known to be in the US.
    expect(geocode(['Remote - MA'], { countries: ['US'] }).regions).toEqual(['Massachusetts']);
  });

  it('the settled reading of "CA" does not leak into later calls (parsed strings are cached)', () => {
    geocode(['CA', 'Austin, TX']);
    expect(countryNames(geocode(['CA']).countries)).toEqual(['Canada']);
  });

  it('never throws on any input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 4 }), (raws) => {
        const g = geocode(raws);
        expect(Array.isArray(g.countries)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
