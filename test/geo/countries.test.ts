import { describe, expect, it } from 'vitest';
import {
  allCountryCodes,
  continentOfCountry,
  countryName,
  isCountryCode,
  lookupCountry,
  toCountryCode,
} from '../../src/geo/countries.ts';

const CONTINENTS = ['Africa', 'Antarctica', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'];

describe('countries', () => {
  it('names and codes keep their behaviour', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('gb')).toBe('United Kingdom');
    expect(toCountryCode('Germany')).toBe('DE');
    expect(toCountryCode('de')).toBe('DE');
    expect(toCountryCode('United States of America')).toBe('US');
    expect(toCountryCode('XX')).toBeUndefined();
    expect(toCountryCode('Deutschland')).toBeUndefined();
    expect(isCountryCode('FR')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
  });

  it.each([
    ['US', 'North America'],
    ['MX', 'North America'],
    ['PA', 'North America'],
    ['BR', 'South America'],
    ['DE', 'Europe'],
    ['RU', 'Europe'],
    ['TR', 'Asia'],
    ['IN', 'Asia'],
    ['EG', 'Africa'],
    ['AU', 'Oceania'],
    ['AQ', 'Antarctica'],
    ['gb', 'Europe'],
  ])('continentOfCountry(%s) = %s', (code, continent) => {
    expect(continentOfCountry(code)).toBe(continent);
  });

  it('every known country has one of the seven continents', () => {
    for (const c of allCountryCodes()) expect(CONTINENTS).toContain(continentOfCountry(c));
    expect(continentOfCountry('XX')).toBeUndefined();
  });

  it.each([
    ['Deutschland', 'DE'],
    ['España', 'ES'],
    ['Schweiz', 'CH'],
    ['Suisse', 'CH'],
    ['Österreich', 'AT'],
    ['Brasil', 'BR'],
    ['México', 'MX'],
    ['UK', 'GB'],
    ['U.S.A.', 'US'],
    ['DEU', 'DE'],
    ['Nederland', 'NL'],
    ['Polska', 'PL'],
  ])('lookupCountry(%s) = %s', (name, code) => {
    expect(lookupCountry(name)).toBe(code);
  });
});
