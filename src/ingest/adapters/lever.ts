// Lever postings API: a bare array from /v0/postings/{site}?mode=json.
import type { SalaryInput } from '../../model/record.ts';
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  amount,
  asArray,
  companyOf,
  country,
  employmentTypes,
  httpUrl,
  isObj,
  location,
  mapItems,
  type Obj,
  parseJson,
  requireTitle,
  requireUrl,
  salary,
  str,
  toIsoUtc,
  workplace,
} from './util.ts';

// Null prototype: looked up with payload strings, so "__proto__" or "constructor" find nothing.
const INTERVALS: Record<string, string> = Object.setPrototypeOf(
  {
    'per-year-salary': 'YEAR',
    'per-month-salary': 'MONTH',
    'per-week-salary': 'WEEK',
    'per-day-wage': 'DAY',
    'per-hour-wage': 'HOUR',
  },
  null,
);

/** Yearly figures under 1000 were entered in thousands ("100–130" for 100,000–130,000). */
const LEVER_THOUSANDS_BELOW = 1000;

function leverSalary(p: Obj): SalaryInput | undefined {
  const r = isObj(p.salaryRange) ? p.salaryRange : undefined;
  const text = str(p.salaryDescriptionPlain) ?? str(p.salaryDescription);
  if (!r) return text ? { text } : undefined;
  const unit = INTERVALS[str(r.interval) ?? ''];
  let min = amount(r.min);
  let max = amount(r.max);
  if (unit === 'YEAR' && (min ?? 0) < LEVER_THOUSANDS_BELOW && (max ?? 0) < LEVER_THOUSANDS_BELOW) {
    if (min !== undefined) min *= 1000;
    if (max !== undefined) max *= 1000;
  }
  return salary({ min, max, currency: str(r.currency)?.toUpperCase(), unit, text });
}

/** Lever splits the text: description (or opening + body), then lists, then closing remarks. */
function descriptionHtml(p: Obj): string | undefined {
  const parts: string[] = [];
  const desc = str(p.description) ?? [str(p.opening), str(p.descriptionBody)].filter(Boolean).join('\n');
  if (desc) parts.push(desc);
  for (const l of asArray(p.lists)) {
    if (!isObj(l)) continue;
    const heading = str(l.text);
    const content = str(l.content);
    if (!content) continue;
    parts.push(`${heading ? `<h3>${heading}</h3>` : ''}<ul>${content}</ul>`);
  }
  const additional = str(p.additional);
  if (additional) parts.push(additional);
  return parts.length ? parts.join('\n') : undefined;
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('lever', payload);
  if (!Array.isArray(body)) throw new AdapterFormatError('lever', 'expected an array of postings');
  return mapItems(
    body,
    (p) => str((p as Obj).id),
    (p, id) => {
      const cat = isObj(p.categories) ? p.categories : {};
      const work = workplace(p.workplaceType);
      const url = requireUrl(p.hostedUrl, 'hostedUrl');
      const c = country(p.country);
      const html = descriptionHtml(p);
      return {
        id: `lever:${id}`,
        source: ctx.source,
        title: requireTitle(p.text),
        company: companyOf(ctx),
        url,
        apply_url: httpUrl(p.applyUrl),
        canonical_url: url,
        description_html: html,
        description_text: html ? undefined : str(p.descriptionPlain),
        location: location({
          raw: [str(cat.location), ...asArray(cat.allLocations).map(str)].filter((x): x is string => !!x),
          remote: work === 'Remote' ? true : undefined,
          countries: c ? [c] : undefined,
        }),
        work_arrangement: work,
        employment_type: employmentTypes(cat.commitment),
        department: str(cat.department),
        team: str(cat.team),
        posted_at: toIsoUtc(p.createdAt),
        salary: leverSalary(p),
        board: ctx.board,
      };
    },
  );
}

export const lever: Adapter = { format: 'lever', parse };
