// One codec per kind of parameter: parses a raw query value (or rejects it with a 400 naming the
// parameter) and describes itself as an OpenAPI schema. Nothing is coerced or dropped silently.
import ISO6391 from 'iso-639-1';
import { ParamError } from '../../errors.ts';
import { toCountryCode } from '../../geo/countries.ts';

export interface Codec<T> {
  /** OpenAPI schema of the raw value. */
  schema: Record<string, unknown>;
  parse(raw: string, param: string): T;
}

const MAX_TEXT = 512;
const MAX_LIST = 50;

function fail(param: string, hint: string): never {
  throw new ParamError(param, hint);
}

/** Comma-separated items, each trimmed; an empty item is an error. */
function splitList(raw: string, param: string): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) fail(param, 'empty item in comma-separated list');
  if (items.length > MAX_LIST) fail(param, `at most ${MAX_LIST} comma-separated values`);
  return items;
}

export function integer(min: number, max: number): Codec<number> {
  return {
    schema: { type: 'integer', minimum: min, maximum: max },
    parse(raw, param) {
      if (!/^-?\d+$/.test(raw)) fail(param, `must be a whole number from ${min} to ${max}`);
      const n = Number(raw);
      if (!Number.isSafeInteger(n) || n < min || n > max)
        fail(param, `must be a whole number from ${min} to ${max}`);
      return n;
    },
  };
}

export function number(min: number, max = 1e15): Codec<number> {
  return {
    schema: { type: 'number', minimum: min, maximum: max },
    parse(raw, param) {
      if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(raw)) fail(param, `must be a number from ${min}`);
      const n = Number(raw);
      if (!Number.isFinite(n) || n < min || n > max) fail(param, `must be a number from ${min} to ${max}`);
      return n;
    },
  };
}

/** One value of a fixed set, matched exactly (case included). */
export function oneOf<const T extends string>(values: readonly T[]): Codec<T> {
  return {
    schema: { type: 'string', enum: [...values] },
    parse(raw, param) {
      if (!(values as readonly string[]).includes(raw)) fail(param, `must be one of: ${values.join(', ')}`);
      return raw as T;
    },
  };
}

/** Comma-separated members of a fixed set (OR), matched exactly, case included. */
export function enumList<const T extends string>(values: readonly T[]): Codec<T[]> {
  return {
    schema: { type: 'string', description: `comma-separated, any of: ${values.join(', ')}` },
    parse(raw, param) {
      const items = splitList(raw, param);
      for (const item of items) {
        if (!(values as readonly string[]).includes(item)) {
          fail(param, `unknown value ${JSON.stringify(item)}; allowed values: ${values.join(', ')}`);
        }
      }
      return [...new Set(items)] as T[];
    },
  };
}

/** Comma-separated free values, each mapped (and possibly rejected) by `map`. */
export function list(map: (item: string, param: string) => string = (s) => s, maxLen = 200): Codec<string[]> {
  return {
    schema: { type: 'string', maxLength: MAX_TEXT },
    parse(raw, param) {
      if (raw.length > MAX_TEXT) fail(param, `at most ${MAX_TEXT} characters`);
      const items = splitList(raw, param);
      for (const item of items)
        if (item.length > maxLen) fail(param, `each value at most ${maxLen} characters`);
      return [...new Set(items.map((i) => map(i, param)))];
    },
  };
}

export function text(maxLength = MAX_TEXT): Codec<string> {
  return {
    schema: { type: 'string', minLength: 1, maxLength },
    parse(raw, param) {
      if (raw.trim() === '') fail(param, 'must not be blank');
      if (raw.length > maxLength) fail(param, `at most ${maxLength} characters`);
      return raw.trim();
    },
  };
}

/** true/false, and 1/0 where the spec allows them. */
export function boolean(allowDigits: boolean): Codec<boolean> {
  const allowed = allowDigits ? ['true', 'false', '1', '0'] : ['true', 'false'];
  return {
    schema: { type: 'string', enum: allowed },
    parse(raw, param) {
      if (!allowed.includes(raw)) fail(param, `must be one of: ${allowed.join(', ')}`);
      return raw === 'true' || raw === '1';
    },
  };
}

/** Countries as full English names or ISO-2 codes, comma = OR; yields ISO-2 codes. */
export const countries: Codec<string[]> = {
  schema: { type: 'string', description: 'comma-separated full English names or ISO 3166-1 alpha-2 codes' },
  parse(raw, param) {
    return [
      ...new Set(
        splitList(raw, param).map((item) => {
          const code = toCountryCode(item);
          if (!code) {
            fail(
              param,
              /^[A-Za-z]{2}$/.test(item)
                ? `unknown ISO 3166-1 alpha-2 country code ${JSON.stringify(item)}`
                : `unknown country ${JSON.stringify(item)}; use a full English name or an ISO-2 code`,
            );
          }
          return code;
        }),
      ),
    ];
  },
};

/** Languages as English names or ISO-639-1 codes; yields codes. */
export const languages: Codec<string[]> = {
  schema: { type: 'string', description: 'comma-separated ISO 639-1 codes or English language names' },
  parse(raw, param) {
    return [
      ...new Set(
        splitList(raw, param).map((item) => {
          const lower = item.toLowerCase();
          if (/^[a-z]{2}$/.test(lower) && ISO6391.validate(lower)) return lower;
          const code = ISO6391.getAllNames().find((n) => n.toLowerCase() === lower);
          if (code) return ISO6391.getCode(code);
          return fail(
            param,
            `unknown language ${JSON.stringify(item)}; use an ISO 639-1 code or an English name`,
          );
        }),
      ),
    ];
  },
};

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO-4217 codes, case-insensitive; yields upper case. */
export const currencies: Codec<string[]> = {
  schema: { type: 'string', description: 'comma-separated ISO 4217 currency codes' },
  parse(raw, param) {
    return [
      ...new Set(
        splitList(raw, param).map((item) => {
          const code = item.toUpperCase();
          if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) {
            fail(param, `unknown ISO 4217 currency code ${JSON.stringify(item)}`);
          }
          return code;
        }),
      ),
    ];
  },
};

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_WINDOW_MS = 3650 * UNIT_MS.d;

/** A relative window: a number and a unit m, h or d ("15m", "24h", "7d"). */
export interface Window {
  text: string;
  ms: number;
}
export const window: Codec<Window> = {
  schema: { type: 'string', pattern: '^[0-9]+[mhd]$', examples: ['15m', '1h', '24h', '7d', '30d'] },
  parse(raw, param) {
    const m = /^(\d{1,7})([mhd])$/.exec(raw);
    if (!m) fail(param, 'must be a number followed by m (minutes), h (hours) or d (days), e.g. 24h');
    const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
    if (ms <= 0) fail(param, 'must be greater than zero');
    if (ms > MAX_WINDOW_MS) fail(param, 'at most 3650d');
    return { text: raw, ms };
  },
};

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 instant. A date alone means midnight UTC; a time without zone means UTC.
 * Yields a canonical string PostgreSQL parses with full microsecond precision.
 */
export const instant: Codec<string> = {
  schema: { type: 'string', format: 'date-time', examples: ['2026-11-01T00:00:00Z', '2026-11-01'] },
  parse(raw, param) {
    const m = INSTANT.exec(raw.trim());
    const bad = () => fail(param, 'must be an ISO 8601 instant, e.g. 2026-11-01T12:00:00Z or 2026-11-01');
    if (!m) bad();
    const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m!;
    const base = `${y}-${mo}-${d}T${h}:${mi}:${s}`;
    // Check the calendar fields (e.g. 2026-02-30 or 25:00) by round-tripping through Date.
    const check = new Date(`${base}Z`);
    if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 19) !== base) bad();
    const y4 = Number(y);
    if (y4 < 1970 || y4 > 9999) fail(param, 'year must be from 1970 to 9999');
    let z = zone;
    if (z !== 'Z') {
      const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(z)!;
      if (Number(zm[2]) > 14 || Number(zm[3] ?? 0) > 59) bad();
      z = `${zm[1]}${zm[2]}:${zm[3] ?? '00'}`;
    }
    return `${base}${frac ? `.${frac}` : ''}${z === 'Z' ? '+00:00' : z}`;
  },
};
