// Greenhouse job board API: `{jobs:[…], meta}` from /v1/boards/{board}/jobs?content=true, or one job
// from the single-job call. Pay: `pay_input_ranges` (in cents) where given, else a currency_range custom
// field; the pay-range block boards append to `content` is read with the description.
import type { SalaryInput } from '../../model/record.ts';
import { countryNames, geocode } from '../../geo/geocode.ts';
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  amount,
  asArray,
  combineTiers,
  companyOf,
  decodeOnce,
  employmentTypes,
  isObj,
  location,
  mapItems,
  type Obj,
  parseJson,
  requireTitle,
  requireUrl,
  salary,
  salaryUnit,
  str,
  toIsoUtc,
} from './util.ts';

function metadataValue(job: Obj, name: RegExp): unknown[] {
  const out: unknown[] = [];
  for (const m of asArray(job.metadata)) {
    if (isObj(m) && typeof m.name === 'string' && name.test(m.name)) out.push(...asArray(m.value));
  }
  return out;
}

function payRanges(job: Obj): SalaryInput | undefined {
  const tiers: SalaryInput[] = [];
  for (const r of asArray(job.pay_input_ranges)) {
    if (!isObj(r)) continue;
    const min = amount(r.min_cents);
    const max = amount(r.max_cents);
    tiers.push({
      min: min === undefined ? undefined : min / 100,
      max: max === undefined ? undefined : max / 100,
      currency: str(r.currency_type)?.toUpperCase(),
      // No interval field: the range title or blurb usually says "per year" / "hourly".
      unit: salaryUnit(`${str(r.title) ?? ''} ${str(r.blurb) ?? ''}`) ?? 'YEAR',
      text: str(r.title),
    });
  }
  if (!tiers.length) return metadataPay(job);
  // Several ranges (zones): the overall range is kept with every range spelled out in the text.
  const text =
    tiers.length > 1
      ? tiers
          .map((t) =>
            `${t.text ? `${t.text}: ` : ''}${t.min ?? ''}–${t.max ?? ''} ${t.currency ?? ''}`.trim(),
          )
          .join('; ')
      : undefined;
  return combineTiers(tiers, text);
}

/**
 * Pay as boards set it up in custom fields: `metadata` entries of type currency_range with string numbers
 * ({"unit":"USD","min_value":"81000.0","max_value":"118000.0"}). The first that is set and non-zero,
 * except internal budgets ("Baseline Budgeted Salary"); the posted pay-range block in `content` is read
 * with the description.
 */
function metadataPay(job: Obj): SalaryInput | undefined {
  for (const m of asArray(job.metadata)) {
    if (!isObj(m) || m.value_type !== 'currency_range' || !isObj(m.value)) continue;
    const name = str(m.name) ?? '';
    if (/budget/i.test(name)) continue;
    const min = amount(m.value.min_value);
    const max = amount(m.value.max_value);
    if (!min && !max) continue;
    return salary({
      min: min || undefined,
      max: max || undefined,
      currency: str(m.value.unit)?.toUpperCase(),
      unit: salaryUnit(name),
      text: name,
    });
  }
  return undefined;
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('greenhouse', payload);
  let jobs: unknown[];
  if (isObj(body) && Array.isArray(body.jobs)) jobs = body.jobs;
  else if (isObj(body) && body.id !== undefined && 'absolute_url' in body) jobs = [body];
  else throw new AdapterFormatError('greenhouse', 'expected {jobs:[…]} or a single job');

  return mapItems(
    jobs,
    (j) => str((j as Obj).id),
    (job, id) => {
      const title = requireTitle(job.title);
      const url = requireUrl(job.absolute_url, 'absolute_url');
      const loc = isObj(job.location) ? str(job.location.name) : undefined;
      const offices = asArray(job.offices).filter(isObj);
      const raw = loc ? [loc] : offices.map((o) => str(o.location) ?? str(o.name));
      // The offices' countries: the context that reads "Remote - MA" (office "Remote - US") as Massachusetts.
      const officeCountries = loc
        ? countryNames(geocode(offices.map((o) => str(o.location) ?? str(o.name) ?? '')).countries)
        : [];
      const placeText = [loc, ...offices.map((o) => str(o.name))].filter(Boolean).join(' ');
      const metaWorkplace = metadataValue(job, /remote|workplace|work ?type|location ?type|arrangement/i)
        .map((v) => String(v))
        .join(' ');
      const hay = `${placeText} ${metaWorkplace}`;
      const work = /hybrid/i.test(hay)
        ? 'Hybrid'
        : /remote/i.test(hay)
          ? 'Remote'
          : /on-?site/i.test(hay)
            ? 'On-site'
            : undefined;
      const content = str(job.content);
      return {
        id: `greenhouse:${id}`,
        source: ctx.source,
        title,
        company: companyOf(ctx, str(job.company_name)),
        url,
        canonical_url: url,
        // Always entity-escaped by Greenhouse: unescape exactly once (sanitised at load).
        description_html: content ? decodeOnce(content) : undefined,
        location: location({
          raw: raw.filter((x): x is string => !!x),
          countries: officeCountries,
          remote: work === 'Remote' ? true : undefined,
        }),
        work_arrangement: work,
        employment_type: employmentTypes(metadataValue(job, /employment|job ?type|time ?type|commitment/i)),
        department: asArray(job.departments)
          .filter(isObj)
          .map((d) => str(d.name))
          .find(Boolean),
        requisition_id: str(job.requisition_id),
        posted_at: toIsoUtc(job.first_published) ?? toIsoUtc(job.updated_at),
        salary: payRanges(job),
        job_language: /^[a-z]{2}$/i.test(str(job.language) ?? '')
          ? str(job.language)!.toLowerCase()
          : undefined,
        board: ctx.board,
      };
    },
  );
}

export const greenhouse: Adapter = { format: 'greenhouse', parse };
