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
for (const [code, list] of Object.entries(countries.getNames('en', { select: 'all' }) as Record<string, string[]>)) {
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
