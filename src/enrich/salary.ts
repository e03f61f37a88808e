// Salary: what was posted (structured fields or free text), kept as posted, plus an annualised range.
//
// One annualisation rule for every source: YEAR ×1, MONTH ×12, WEEK ×52, DAY ×260, HOUR ×2080
// (40 hours × 52 weeks; 5 days × 52 weeks). Values are rejected, never guessed, when they cannot be a
// salary: the check converts to rough US dollars with the order-of-magnitude rates below, which are
// used for nothing else.
import type { SalaryInput } from '../model/record.ts';
import type { Salary } from '../model/enriched.ts';

const ANNUAL_FACTOR: Record<string, number> = { YEAR: 1, MONTH: 12, WEEK: 52, DAY: 260, HOUR: 2080 };

// Approximate USD value of one unit, for plausibility only (a factor of two either way changes nothing).
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const USD_RATE: Record<string, number> = Object.setPrototypeOf(
  {
    USD: 1,
    EUR: 1.1,
    GBP: 1.27,
    CHF: 1.1,
    CAD: 0.73,
    AUD: 0.66,
    NZD: 0.6,
    JPY: 0.0067,
    CNY: 0.14,
    HKD: 0.13,
    SGD: 0.74,
    INR: 0.012,
    KRW: 0.00075,
    TWD: 0.031,
    SEK: 0.095,
    NOK: 0.095,
    DKK: 0.145,
    ISK: 0.0072,
    PLN: 0.25,
    CZK: 0.043,
    HUF: 0.0028,
    RON: 0.22,
    BGN: 0.56,
    TRY: 0.03,
    RUB: 0.011,
    UAH: 0.024,
    ILS: 0.27,
    AED: 0.27,
    SAR: 0.27,
    QAR: 0.27,
    EGP: 0.02,
    ZAR: 0.054,
    NGN: 0.00065,
    KES: 0.0077,
    MAD: 0.1,
    BRL: 0.18,
    MXN: 0.055,
    ARS: 0.001,
    CLP: 0.0011,
    COP: 0.00025,
    PEN: 0.27,
    IDR: 0.000063,
    PHP: 0.018,
    VND: 0.00004,
    THB: 0.028,
    MYR: 0.21,
    PKR: 0.0036,
    BDT: 0.0085,
    LKR: 0.0033,
    RSD: 0.0093,
    GEL: 0.37,
    KZT: 0.0021,
  },
  null,
);
/** Plausible annual pay in USD: below is a misread; above is cents or an error. */
const MIN_ANNUAL_USD = 300;
const MAX_ANNUAL_USD = 3_000_000;

const SYMBOLS: [RegExp, string][] = [
  [/US\$|USD/i, 'USD'],
  [/C\$|CA\$|CAD/i, 'CAD'],
  [/A\$|AU\$|AUD/i, 'AUD'],
  [/NZ\$|NZD/i, 'NZD'],
  [/S\$|SGD/i, 'SGD'],
  [/HK\$|HKD/i, 'HKD'],
  [/MX\$|MXN/i, 'MXN'],
  [/R\$|BRL/, 'BRL'],
  [/€|EUR|euros?\b/i, 'EUR'],
  [/£|GBP/i, 'GBP'],
  [/₹|INR|\bRs\.?(?=\s?\d)|\bLPA\b|lakhs?\b/i, 'INR'],
  [/CHF|\bFr\.(?=\s?\d)/i, 'CHF'],
  [/CN¥|RMB|CNY|元/i, 'CNY'],
  [/¥|JPY|円/i, 'JPY'],
  [/₩|KRW/i, 'KRW'],
  [/zł|PLN/i, 'PLN'],
  [/Kč|CZK/i, 'CZK'],
  [/\bFt\b|HUF/i, 'HUF'],
  [/₺|TRY/, 'TRY'],
  [/₪|ILS|NIS/, 'ILS'],
  [/₱|PHP/, 'PHP'],
  [/₦|NGN/, 'NGN'],
  [/₽|RUB/, 'RUB'],
  [/฿|THB/, 'THB'],
  [/\blei\b|RON/i, 'RON'],
  [/AED|dirhams?/i, 'AED'],
  [/ZAR|\bR(?=\s?\d)/, 'ZAR'],
];
const CODE_RE = /\b([A-Z]{3})\b/g;
const DOLLAR_BY_COUNTRY: Record<string, string> = {
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  SG: 'SGD',
  HK: 'HKD',
  MX: 'MXN',
  TW: 'TWD',
};
const KRONA_BY_COUNTRY: Record<string, string> = { SE: 'SEK', NO: 'NOK', DK: 'DKK', IS: 'ISK' };

const UNIT_WORDS: [RegExp, string][] = [
  [/\b(?:LPA|lakhs? per annum|CTC)\b/i, 'YEAR'],
  [
    /(?:\/|\bper\s|\ba\s|\ban\s|\bpro\s|\bpar\s|\bpor\s|\bal\s|\bim\s)\s*(?:hour|hr|h|stunde|std|heure|hora)\b|\bhourly\b|\bstündlich\b|\/h\b|\bph\b/i,
    'HOUR',
  ],
  [
    /(?:\/|\bper\s|\ba\s|\bpro\s|\bpar\s|\bpor\s)\s*(?:day|tag|jour|d[ií]a)\b|\bdaily\b|\bday rate\b|\bp\/?d\b/i,
    'DAY',
  ],
  [/(?:\/|\bper\s|\ba\s|\bpro\s|\bpar\s|\bpor\s)\s*(?:week|wk|woche|semaine|semana)\b|\bweekly\b/i, 'WEEK'],
  [
    /(?:\/|\bper\s|\ba\s|\bpro\s|\bpar\s|\bpor\s|\bal\s|\bim\s)\s*(?:month|mo|monat|mois|mes|mês|mån|månad|miesiąc)\b|\bmonthly\b|\bmonatlich\b|\bmensuel(?:le)?\b|\bmensual\b|\bp\.?\s?m\b/i,
    'MONTH',
  ],
  [
    /(?:\/|\bper\s|\ba\s|\ban\s|\bpro\s|\bpar\s|\bpor\s|\bal\s|\bim\s)\s*(?:year|yr|annum|jahr|an|año|ano)\b|\bannual(?:ly)?\b|\byearly\b|\bj[äa]hrlich\w*|\bannuel(?:le)?\b|\banual\b|\bp\.\s?a\.?|\bpa\b|\bbrutto\/jahr\b/i,
    'YEAR',
  ],
];

// A number with optional thousands separators and decimals, and an optional magnitude suffix.
const NUM_RE =
  /(\d{1,3}(?:[,.'\u2019\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?)\s*(k|m|mn|million|l|lakhs?|lpa|cr|crores?)?(?![\p{L}\d])/giu;
const RANGE_SEP_RE = /^\s*(?:-|–|—|to|bis|à|a|au|hasta|até|~)\s*$/i;
const SKIP_RE = /\b(?:competitive|doe|negotiable|depending on experience|tbd|n\/a)\b/i;

export interface SalaryContext {
  /** ISO-2 countries of the posting, to tell "$" (USD, CAD, AUD…) and "kr" apart. */
  countries?: string[];
}

function parseNumber(raw: string, suffix: string | undefined): number {
  let s = raw.replace(/[\u00a0\u202f ']/g, '').replace(/\u2019/g, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    // Both present: the later one is the decimal mark.
    const dec = lastDot > lastComma ? '.' : ',';
    const thou = dec === '.' ? ',' : '.';
    s = s.split(thou).join('').replace(dec, '.');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const groups = s.split(sep);
    // "45.000" and "8,000" group thousands; "15.50" and "1,5" are decimals.
    const thousands = groups.length > 2 || (groups[1].length === 3 && groups[0] !== '0');
    s = thousands ? groups.join('') : groups.join('.');
  }
  let n = Number.parseFloat(s);
  const k = (suffix ?? '').toLowerCase();
  if (k === 'k') n *= 1e3;
  else if (k === 'm' || k === 'mn' || k === 'million') n *= 1e6;
  else if (k === 'l' || k.startsWith('lakh') || k === 'lpa') n *= 1e5;
  else if (k === 'cr' || k.startsWith('crore')) n *= 1e7;
  return n;
}

function currencyOf(text: string, ctx: SalaryContext): string | undefined {
  for (const [re, code] of SYMBOLS) if (re.test(text)) return code;
  for (const m of text.matchAll(CODE_RE)) if (USD_RATE[m[1]]) return m[1];
  if (/\$/.test(text)) {
    if (ctx.countries?.includes('US')) return 'USD';
    for (const cc of ctx.countries ?? []) if (DOLLAR_BY_COUNTRY[cc]) return DOLLAR_BY_COUNTRY[cc];
    return 'USD';
  }
  if (/\bkr\.?|\bSEK|\bNOK|\bDKK/i.test(text)) {
    for (const cc of ctx.countries ?? []) if (KRONA_BY_COUNTRY[cc]) return KRONA_BY_COUNTRY[cc];
    return 'SEK';
  }
  return undefined;
}

function normaliseUnit(unit: string | undefined): string | undefined {
  if (!unit) return undefined;
  const u = unit.toLowerCase().replace(/[^a-z]/g, '');
  if (/year|annum|annual|yearly|yr|salary$/.test(u) && !/month|hour|week|day/.test(u)) return 'YEAR';
  if (/month/.test(u)) return 'MONTH';
  if (/week/.test(u)) return 'WEEK';
  if (/day|daily/.test(u)) return 'DAY';
  if (/hour|hr|wage/.test(u)) return 'HOUR';
  return undefined;
}

function unitOf(text: string): string | undefined {
  for (const [re, unit] of UNIT_WORDS) if (re.test(text)) return unit;
  return undefined;
}

/** Parse a posted salary string ("$90k–$120k a year", "€45.000 - €55.000 brutto/Jahr", "INR 12 LPA"). */
export function parseSalaryText(
  text: string,
  ctx: SalaryContext = {},
): { min?: number; max?: number; currency?: string; unit?: string } | undefined {
  if (!text || text.length > 400 || SKIP_RE.test(text)) return undefined;
  const currency = currencyOf(text, ctx);
  const nums: { value: number; end: number; start: number; suffix?: string }[] = [];
  for (const m of text.matchAll(NUM_RE)) {
    const before = text.slice(Math.max(0, m.index - 1), m.index);
    // Skip percentages and equity: only the cash part is a salary.
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (/%/.test(after) || /[+]/.test(before)) continue;
    nums.push({ value: parseNumber(m[1], m[2]), start: m.index, end: m.index + m[0].length, suffix: m[2] });
    if (nums.length === 2) break;
  }
  if (!nums.length) return undefined;
  let min = nums[0].value;
  let max: number | undefined;
  if (nums.length === 2) {
    const between = text
      .slice(nums[0].end, nums[1].start)
      .replace(/[A-Z]{0,3}[$€£₹¥]|\b[A-Z]{3}\b/g, ' ')
      .replace(/[^\p{L}\-–—~]/gu, ' ');
    if (RANGE_SEP_RE.test(between) || between.trim() === '') {
      max = nums[1].value;
      // "90-120k": the suffix of the upper bound applies to both.
      if (!nums[0].suffix && nums[1].suffix && min < 1000) min = parseNumber(String(min), nums[1].suffix);
    }
  }
  const unit = unitOf(text);
  if (max === undefined) {
    const lead = text.slice(0, nums[0].start);
    if (/\bup to\b|\bbis zu\b|\bjusqu'à\b|\bhasta\b|\bmax(?:imum)?\b/i.test(lead))
      return { max: min, currency, unit };
    if (/\bfrom\b|\bab\b|\bà partir de\b|\bdesde\b|\bstarting at\b|\bmin(?:imum)?\b|mindest/i.test(lead)) {
      return { min, currency, unit };
    }
    // One amount, no "from" or "up to": that amount is the salary.
    max = min;
  }
  return { min, max, currency, unit };
}

function usd(n: number, currency: string): number | undefined {
  const r = USD_RATE[currency];
  return r === undefined ? undefined : n * r;
}

function plausible(annual: number, currency: string): boolean {
  const u = usd(annual, currency);
  // Unknown currency: only the sign and a generous bound can be checked.
  if (u === undefined) return annual > 0 && annual < 1e12;
  return u >= MIN_ANNUAL_USD && u <= MAX_ANNUAL_USD;
}

/** "1,234,567.5": en-US grouping, at most two decimals (toLocaleString is slow per call). */
function fmt(n: number): string {
  const r = Math.round(n * 100) / 100;
  const [int, dec] = String(Math.abs(r)).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (r < 0 ? '-' : '') + grouped + (dec ? `.${dec}` : '');
}

/**
 * The posting's salary: structured fields when given, else the posted text. Values stay as posted
 * except two scale fixes that the plausibility check makes unambiguous: yearly bands entered in
 * thousands ("100–130") and amounts in cents. Anything still implausible gives null.
 */
export function salaryOf(input: SalaryInput | undefined, ctx: SalaryContext = {}): Salary | null {
  if (!input || typeof input !== 'object') return null;
  // Scale fixes are for numbers an adapter passed through; text says its own magnitude ("$5M" is no salary).
  const structured = input.min !== undefined || input.max !== undefined;
  let min = numOrUndef(input.min);
  let max = numOrUndef(input.max);
  let currency = input.currency?.trim().toUpperCase();
  let unit = normaliseUnit(input.unit);
  if (min === undefined && max === undefined && input.text) {
    const p = parseSalaryText(input.text, ctx);
    if (!p) return null;
    min = p.min;
    max = p.max;
    currency ??= p.currency;
    unit ??= p.unit;
  } else if (input.text && (!currency || !unit)) {
    const p = parseSalaryText(input.text, ctx);
    currency ??= p?.currency;
    unit ??= p?.unit;
  }
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return null;
  if (min === undefined && max === undefined) return null;
  if ((min !== undefined && min <= 0) || (max !== undefined && max <= 0)) return null;
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  const top = max ?? min!;
  const bottom = min ?? max!;
  // A band wider than 1:10 is two different things put together, not a salary range.
  if (top / bottom > 10) return null;
  unit ??= inferUnit(top, currency);
  if (!unit) return null;
  let scale = 1;
  if (!plausible(top * ANNUAL_FACTOR[unit], currency)) {
    if (!structured) return null;
    const f = ANNUAL_FACTOR[unit];
    if (
      unit === 'YEAR' &&
      top < 1000 &&
      plausible(top * 1000, currency) &&
      (usd(bottom * 1000, currency) ?? 0) >= 10_000
    ) {
      scale = 1000;
    } else if (plausible((top / 100) * f, currency) && plausible((bottom / 100) * f, currency)) scale = 0.01;
    else return null;
  }
  if (!plausible(bottom * scale * ANNUAL_FACTOR[unit], currency)) return null;
  if (scale !== 1) {
    min = min === undefined ? undefined : round2(min * scale);
    max = max === undefined ? undefined : round2(max * scale);
  }
  const f = ANNUAL_FACTOR[unit];
  const sym = currency;
  let range: string;
  if (min !== undefined && max !== undefined) range = min === max ? fmt(min) : `${fmt(min)}–${fmt(max)}`;
  else if (min !== undefined) range = `from ${fmt(min)}`;
  else range = `up to ${fmt(max!)}`;
  return {
    min: min ?? null,
    max: max ?? null,
    currency,
    unit,
    annual_min: min === undefined ? null : Math.round(min * f),
    annual_max: max === undefined ? null : Math.round(max * f),
    summary:
      range.startsWith('from') || range.startsWith('up')
        ? `${range.replace(/^(from|up to) /, `$1 ${sym} `)} per ${unit.toLowerCase()}`
        : `${sym} ${range} per ${unit.toLowerCase()}`,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function numOrUndef(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim()) {
    const n = parseNumber(v.trim(), undefined);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Unit of an amount posted without one: the only reading that is plausible, else none. */
function inferUnit(amount: number, currency: string): string | undefined {
  const u = usd(amount, currency);
  if (u === undefined) return undefined;
  if (u >= 12_000) return 'YEAR';
  if (u >= 1_000) return 'MONTH';
  if (u >= 5 && u <= 300) return 'HOUR';
  return undefined;
}

// --- Pay stated in text: amounts in pay sentences, each labelled as base pay, OTE, or other pay ---

/** Words that make a sentence a pay statement; amounts elsewhere (funding, deal sizes, stipends) are not pay. */
const PAY_WORD_RE =
  /\b(?:salary|salaries|compensation|remuneration|pay range|pay rate|base pay|starting pay|hourly rate|wages?|earnings|OTE|range for this (?:role|position)|gehalt|entgelt|vergütung|jahresgehalt|salaire|rémunération|salario|sueldo)|entgelt|gehalt/i;
/** An amount with its currency before or after it, and the period written right after it ("$30/hour"). */
const MONEY_RE =
  /(?:\b(USD|EUR|GBP|CAD|AUD|CHF|SGD|INR|SAR|PHP|SEK|NOK|DKK|PLN)\s?)?(US\$|CA\$|C\$|A\$|[$€£₱₹])?\s?(\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?!\d)\s?([kK](?![a-z]))?(?:\s?(USD|EUR|GBP|CAD|AUD|CHF|SGD|INR|SAR|PHP|Euros?)\b)?(\s?\/\s?(?:yr|year|hr|hour|h|month|mo|week|day)\b)?(?!\s?%)/gi;
const SEP_RE = /^\s*(?:-|–|—|to|bis|and)\s*$/i;
/** After an amount: what it is ("$72,000 base salary", "$48K Commission", "… which includes base pay plus variable pay"). */
const AFTER_BASE_RE = /^\W{0,3}base\b/i;
const AFTER_OTE_RE =
  /^\W{0,3}(?:\(?OTE\b|on[- ]target)|^[^.]{0,25}\binclud\w* base (?:pay|salary) (?:plus|and|\+) (?:variable|incentive|commission|bonus)/i;
const AFTER_OTHER_RE =
  /^\W{0,3}(?:commission|variable|bonus|equity|stock|sign[- ]on|signing|relocation|stipend)/i;

export type PayLabel = 'base-after' | 'base' | 'unknown' | 'ote' | 'other';
export interface StatedPay {
  min?: number;
  max?: number;
  currency?: string;
  unit?: string;
  label: PayLabel;
}

interface Money {
  value: number;
  currency?: string;
  unit?: string;
  start: number;
  end: number;
  hasK: boolean;
}

/** The pay statements of a text: its sentences with a pay word, each with the line or two after it ("… outlined below: Zone 1: $192,000 – $264,000"). */
function payPassages(text: string, whole: boolean): string[] {
  if (whole) return [text];
  const head = text.length > 30000 ? text.slice(0, 30000) : text;
  const spans: [number, number][] = [];
  for (const m of head.matchAll(new RegExp(PAY_WORD_RE.source, 'gi'))) {
    const start = Math.max(head.lastIndexOf('. ', m.index), head.lastIndexOf('\n', m.index)) + 1;
    let end = m.index;
    // The sentence, then up to two more lines or sentences until one carries an amount.
    for (let k = 0; k < 3; k++) {
      const skip = head.slice(end).search(/\S/);
      if (skip < 0) break;
      const stop = head.slice(end + skip).search(/\.\s|\n/);
      end = stop < 0 ? head.length : end + skip + stop + 1;
      if (/[$€£₱₹]\s?\d|\d\s?(?:USD|EUR|GBP|Euros?)\b/.test(head.slice(start, end))) break;
    }
    const last = spans[spans.length - 1];
    // Overlapping statements are one passage: an amount is read once.
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans.map(([a, b]) => head.slice(a, b));
}

function moneyIn(passage: string, ctx: SalaryContext): Money[] {
  const out: Money[] = [];
  for (const m of passage.matchAll(MONEY_RE)) {
    const [, pre, sym, num, k, post, per] = m;
    let currency: string | undefined;
    if (pre || post) currency = /^euro/i.test(post ?? '') ? 'EUR' : (pre ?? post)!.toUpperCase();
    else if (sym) currency = currencyOf(sym, ctx);
    const prev = out[out.length - 1];
    const between = prev ? passage.slice(prev.end, m.index) : '';
    // A bare number counts only as the upper end of a range ("$170,000-720,000", "$90k- 150k").
    if (!currency && !(prev && SEP_RE.test(between))) continue;
    const value = parseNumber(num, k);
    if (!Number.isFinite(value) || value <= 0) continue;
    out.push({
      value,
      currency,
      unit: per ? unitOf(per) : undefined,
      start: m.index,
      end: m.index + m[0].length,
      hasK: !!k,
    });
  }
  return out;
}

function lastAt(re: RegExp, s: string): number {
  let at = -1;
  for (const m of s.matchAll(re)) at = m.index;
  return at;
}

function labelOf(before: string, after: string): PayLabel {
  if (AFTER_BASE_RE.test(after)) return 'base-after';
  if (AFTER_OTE_RE.test(after)) return 'ote';
  if (AFTER_OTHER_RE.test(after)) return 'other';
  // Before it: the last of "base" and "OTE" that the text names decides.
  const ote = Math.max(lastAt(/\bOTE\b/g, before), lastAt(/\bon[- ]target/gi, before));
  const base = lastAt(/\bbase\b/gi, before);
  if (ote >= 0 && ote > base) return 'ote';
  if (/\b(?:commission|bonus|variable)\w*\s+(?:target|of|is)?\s*$/i.test(before)) return 'other';
  return base >= 0 ? 'base' : 'unknown';
}

/**
 * Every amount or range a text states as pay, labelled: `base-after` ("$72,000 base salary"), `base`
 * (after "base salary … is"), `ote` (on-target earnings, or pay said to include variable or commission
 * pay), `other` (commission, bonus, equity), `unknown`. `whole`: the text is a pay statement throughout
 * (a source's salary summary), not a description.
 */
export function statedPay(text: string, ctx: SalaryContext = {}, whole = false): StatedPay[] {
  const out: StatedPay[] = [];
  for (const passage of payPassages(text, whole)) {
    const money = moneyIn(passage, ctx);
    let prevEnd = 0;
    for (let i = 0; i < money.length; i++) {
      const a = money[i];
      let b: Money | undefined;
      const next = money[i + 1];
      if (next) {
        const between = passage.slice(a.end, next.start);
        // "between USD $73,100 in the lowest geographic market and USD $117,000 in the highest"
        const spelled =
          /^[^\d.]{0,60}\band\s*$/i.test(between) &&
          /\bbetween\s*$/i.test(passage.slice(prevEnd, a.start).slice(-20));
        if (SEP_RE.test(between) || spelled) b = next;
      }
      const last = b ?? a;
      const before = passage.slice(Math.max(prevEnd, a.start - 160), a.start);
      const after = passage.slice(last.end, last.end + 70);
      let min = a.value;
      const max = b ? b.value : undefined;
      // "€75–90k": the suffix of the upper bound applies to both.
      if (b?.hasK && !a.hasK && min < 1000) min *= 1000;
      const unit = last.unit ?? a.unit ?? unitOf(after.slice(0, 25)) ?? unitOf(before.slice(-80));
      const stated: StatedPay = { currency: a.currency ?? b?.currency, unit, label: labelOf(before, after) };
      if (max !== undefined) [stated.min, stated.max] = [min, max];
      else if (/mindest|\bminimum\b|\bfrom\b|\bstarting at\b|\bab\b/i.test(before.slice(-60)))
        stated.min = min;
      else if (/\bup to\b|\bmaximum\b|\bbis zu\b/i.test(before.slice(-40))) stated.max = min;
      else [stated.min, stated.max] = [min, min];
      out.push(stated);
      prevEnd = last.end;
      if (b) i++;
    }
  }
  return out;
}

const STRENGTH: Record<PayLabel, number> = { 'base-after': 3, base: 2, unknown: 1, ote: 0, other: 0 };

/**
 * The base pay of statements: the most explicitly labelled ones ("… base salary" over "base salary is …"
 * over unlabelled; OTE and other pay never), and of those every one in the first one's currency and
 * period, as one overall range (ranges per zone or market, like a source's tiers).
 */
function basePay(statements: StatedPay[], ctx: SalaryContext): Salary | null {
  const best = Math.max(0, ...statements.map((s) => STRENGTH[s.label]));
  if (!best) return null;
  const picked = statements.filter((s) => STRENGTH[s.label] === best && s.currency);
  for (const first of picked) {
    const same = picked.filter((s) => s.currency === first.currency && s.unit === first.unit);
    const mins = same.map((s) => s.min).filter((n): n is number => n !== undefined);
    const maxs = same.map((s) => s.max).filter((n): n is number => n !== undefined);
    const salary = salaryOf(
      {
        min: mins.length ? Math.min(...mins) : undefined,
        max: maxs.length ? Math.max(...maxs) : undefined,
        currency: first.currency,
        unit: first.unit,
      },
      ctx,
    );
    if (salary) return salary;
  }
  return null;
}

/** The base pay a description states, if any (see statedPay and basePay). */
export function salaryFromDescription(text: string, ctx: SalaryContext = {}): Salary | null {
  return basePay(statedPay(text, ctx), ctx);
}

function sameRange(s: StatedPay, salary: Salary): boolean {
  const near = (a: number | undefined, b: number | null) =>
    a !== undefined && b !== null && Math.abs(a - b) <= Math.max(1, b * 0.005);
  return (
    (near(s.min, salary.min) || near(s.max, salary.max)) && (!s.currency || s.currency === salary.currency)
  );
}

/**
 * The posting's base salary from what the source gives and what the text states. On-target earnings
 * are never base salary: a source's range that its own summary or the description labels OTE gives way
 * to the base the statements name, else to nothing. A source's summary that names a base amount
 * ("Breakdown of OTE is: $72,000 base salary") gives that amount. Without a source range, the
 * description's base pay (salaryFromDescription).
 */
export function resolveSalary(
  input: SalaryInput | undefined,
  description: string,
  ctx: SalaryContext = {},
): Salary | null {
  const given = input?.text ? statedPay(input.text, ctx, true) : [];
  if (given.some((s) => s.label === 'base-after')) return basePay(given, ctx);
  const structured = salaryOf(input, ctx);
  if (structured) {
    // The description is read only when it could call the range OTE (most never do).
    const described =
      description && /\bOTE\b|on[- ]target|\bvariable\b|\bincentive\b/i.test(description)
        ? statedPay(description, ctx)
        : [];
    const ote = [...given, ...described].some((s) => s.label === 'ote' && sameRange(s, structured));
    if (!ote) return structured;
    return (
      basePay(
        given.filter((s) => s.label !== 'unknown'),
        ctx,
      ) ??
      basePay(
        described.filter((s) => s.label === 'base' || s.label === 'base-after'),
        ctx,
      )
    );
  }
  if (given.some((s) => s.label === 'ote')) return null;
  return description ? basePay(statedPay(description, ctx), ctx) : null;
}
