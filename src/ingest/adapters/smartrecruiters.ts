// SmartRecruiters posting API: the list `{offset, limit, totalFound, content:[…]}` (entries may be
// replaced by their detail, a superset with jobAd, postingUrl and applyUrl) or one posting detail.
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  arrangement,
  companyOf,
  country,
  employmentTypes,
  httpUrl,
  isObj,
  joinPlace,
  location,
  mapItems,
  type Obj,
  parseJson,
  requireTitle,
  seniority,
  str,
  tokenOf,
  toIsoUtc,
} from './util.ts';

// The company description repeats on every posting: left out so descriptions tell postings apart.
const SECTIONS = ['jobDescription', 'qualifications', 'additionalInformation'];

function descriptionHtml(p: Obj): string | undefined {
  const sections = isObj(p.jobAd) && isObj(p.jobAd.sections) ? p.jobAd.sections : undefined;
  if (!sections) return undefined;
  const parts: string[] = [];
  for (const key of SECTIONS) {
    const s = sections[key];
    if (!isObj(s) || !str(s.text)) continue;
    parts.push(`${str(s.title) ? `<h3>${str(s.title)}</h3>` : ''}${str(s.text)}`);
  }
  return parts.length ? parts.join('\n') : undefined;
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('smartrecruiters', payload);
  let items: unknown[];
  if (isObj(body) && Array.isArray(body.content)) items = body.content;
  else if (isObj(body) && body.id !== undefined && body.name !== undefined) items = [body];
  else throw new AdapterFormatError('smartrecruiters', 'expected {content:[…]} or a posting');
  return mapItems(
    items,
    (p) => str((p as Obj).id),
    (p, id) => {
      const loc = isObj(p.location) ? p.location : {};
      const company = isObj(p.company) ? p.company : {};
      const companyId = str(company.identifier) ?? tokenOf(ctx.board);
      const url =
        httpUrl(p.postingUrl) ??
        `https://jobs.smartrecruiters.com/${encodeURIComponent(companyId)}/${encodeURIComponent(id)}`;
      const c = country(loc.country);
      const remote = loc.remote === true;
      const work = arrangement({ remote, hybrid: loc.hybrid === true });
      return {
        id: `smartrecruiters:${id}`,
        source: ctx.source,
        title: requireTitle(p.name),
        company: companyOf(ctx, str(company.name)),
        url,
        apply_url: httpUrl(p.applyUrl),
        canonical_url: url,
        description_html: descriptionHtml(p),
        location: location({
          raw: [
            str(loc.fullLocation) ?? joinPlace(loc.city, loc.region, c ?? str(loc.country)?.toUpperCase()),
          ].filter((x): x is string => !!x),
          remote: remote ? true : undefined,
          countries: c ? [c] : undefined,
          cities: str(loc.city) ? [str(loc.city)!] : undefined,
          regions: str(loc.region) ? [str(loc.region)!] : undefined,
        }),
        work_arrangement: work,
        employment_type: isObj(p.typeOfEmployment) ? employmentTypes(p.typeOfEmployment.label) : undefined,
        department: isObj(p.department) ? str(p.department.label) : undefined,
        seniority: isObj(p.experienceLevel)
          ? (seniority(p.experienceLevel.id) ?? seniority(p.experienceLevel.label))
          : undefined,
        requisition_id: str(p.refNumber),
        posted_at: toIsoUtc(p.releasedDate),
        board: ctx.board,
      };
    },
  );
}

export const smartrecruiters: Adapter = { format: 'smartrecruiters', parse };
