// Recruitee careers API: `{offers:[…]}` from {slug}.recruitee.com/api/offers/.
import type { SalaryInput } from '../../model/record.ts';
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  amount,
  asArray,
  joinPlace,
  uniq,
  arrangement,
  companyOf,
  country,
  education,
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
  salaryUnit,
  seniority,
  str,
  toIsoUtc,
} from './util.ts';

function recruiteeSalary(o: Obj): SalaryInput | undefined {
  if (!isObj(o.salary)) return undefined;
  const s = o.salary;
  const min = amount(s.min);
  const max = amount(s.max);
  if (min === undefined && max === undefined) return undefined;
  // An application question may say what the posted range is ("The range mentioned in the job ad is the
  // OTE. The base is between 50K Euros - 60K Euros per annum"): kept as the range's text.
  const said = asArray(o.open_questions)
    .filter(isObj)
    .map((q) => str(q.body))
    .filter((b): b is string => !!b && /\bOTE\b|on[- ]target|\bbase\b/i.test(b) && /salary|pay|OTE/i.test(b));
  return salary({
    min,
    max,
    currency: str(s.currency)?.toUpperCase(),
    unit: salaryUnit(s.period),
    text: said.length ? said.join(' ') : undefined,
  });
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('recruitee', payload);
  if (!isObj(body) || !Array.isArray(body.offers))
    throw new AdapterFormatError('recruitee', 'expected {offers:[…]}');
  return mapItems(
    body.offers,
    (o) => str((o as Obj).id),
    (o, id) => {
      if (str(o.status) !== undefined && o.status !== 'published') return null;
      const url = requireUrl(o.careers_url, 'careers_url');
      // (seen) `locations[]` lists every office, each with its country; the flat fields name the first.
      const listed = asArray(o.locations).filter(isObj);
      const places = listed.length ? listed : [o];
      const countries = places.map((p) => country(p.country_code) ?? country(p.country));
      const cities = places.map((p) => str(p.city));
      const regions = places.map((p) => str(p.state_name) ?? str(p.state) ?? str(p.state_code));
      const html = [str(o.description), str(o.requirements)].filter(Boolean).join('\n');
      const hours = amount(o.max_hours) ?? amount(o.min_hours);
      return {
        id: `recruitee:${id}`,
        source: ctx.source,
        title: requireTitle(o.title),
        company: companyOf(ctx, str(o.company_name)),
        url,
        apply_url: httpUrl(o.careers_apply_url),
        canonical_url: url,
        description_html: html || undefined,
        location: location({
          raw: uniq(
            places.map((p) => str(p.location) ?? joinPlace(p.city, p.state_name ?? p.state_code, p.country)),
          ),
          remote: o.remote === true ? true : undefined,
          countries: uniq(countries),
          cities: uniq(cities),
          regions: uniq(regions),
        }),
        work_arrangement: arrangement({
          remote: o.remote === true,
          hybrid: o.hybrid === true,
          onsite: o.on_site === true,
        }),
        employment_type: employmentTypes(o.employment_type_code),
        department: str(o.department),
        seniority: seniority(o.experience_code),
        education_requirements: education(o.education_code),
        working_hours: hours && hours > 0 && hours <= 80 ? hours : undefined,
        posted_at: toIsoUtc(o.published_at) ?? toIsoUtc(o.created_at),
        salary: recruiteeSalary(o),
        board: ctx.board,
      };
    },
  );
}

export const recruitee: Adapter = { format: 'recruitee', parse };
