// Workable widget API: `{name, description, jobs:[…]}` from /api/v1/widget/accounts/{slug}?details=true.
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  asArray,
  companyOf,
  country,
  education,
  employmentTypes,
  httpUrl,
  isObj,
  joinPlace,
  location,
  mapItems,
  type Obj,
  parseJson,
  requireTitle,
  requireUrl,
  seniority,
  str,
  toIsoUtc,
} from './util.ts';

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('workable', payload);
  if (!isObj(body) || !Array.isArray(body.jobs))
    throw new AdapterFormatError('workable', 'expected {name, jobs:[…]}');
  const companyName = str(body.name);
  return mapItems(
    body.jobs,
    (j) => str((j as Obj).shortcode),
    (job) => {
      const places = asArray(job.locations).filter(isObj);
      if (places.length === 0 && (job.country || job.city || job.state)) {
        places.push({ country: job.country, city: job.city, region: job.state });
      }
      const url = requireUrl(job.url ?? job.shortlink, 'url');
      const html = [str(job.description), str(job.requirements), str(job.benefits)]
        .filter(Boolean)
        .join('\n');
      // telecommuting=false does not mean on-site: only true is used.
      const remote = job.telecommuting === true;
      return {
        id: `workable:${str(job.shortcode)}`,
        source: ctx.source,
        title: requireTitle(job.title),
        company: companyOf(ctx, companyName),
        url,
        apply_url: httpUrl(job.application_url),
        canonical_url: url,
        description_html: html || undefined,
        location: location({
          raw: places.map((p) => joinPlace(p.city, p.region, p.country)).filter((x): x is string => !!x),
          remote: remote ? true : undefined,
          countries: places
            .map((p) => country(p.countryCode) ?? country(p.country))
            .filter((x): x is string => !!x),
          cities: places.map((p) => str(p.city)).filter((x): x is string => !!x),
          regions: places.map((p) => str(p.region)).filter((x): x is string => !!x),
        }),
        work_arrangement: remote ? 'Remote' : undefined,
        employment_type: employmentTypes(job.employment_type),
        department: str(job.department),
        seniority: seniority(job.experience),
        education_requirements: education(job.education),
        requisition_id: str(job.code),
        posted_at: toIsoUtc(job.published_on) ?? toIsoUtc(job.created_at),
        board: ctx.board,
      };
    },
  );
}

export const workable: Adapter = { format: 'workable', parse };
