// Workday career sites (undocumented CXS API). The list `{total, jobPostings:[…]}` alone gives title,
// path, location text and a relative date; the detail `{jobPostingInfo, hiringOrganization}` the rest.
// Accepted payloads: a list with `details` (detail responses keyed by externalPath, as the crawler
// assembles them), a list whose rows embed their detail (`jobPostingInfo` beside the row's fields, or
// the whole detail response under `detail`), a list alone, one detail response, or an array of them.
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
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
  Reject,
  relativePosted,
  requireTitle,
  str,
  tokenOf,
  toIsoUtc,
  workplace,
} from './util.ts';

/** Board token `{tenant}.wd{N}/{site}` → the public site root. */
export function workdaySite(
  board: string,
): { tenant: string; wd: string; site: string; root: string } | undefined {
  const m = /^([a-z0-9-]+)\.(wd\d+)\/([A-Za-z0-9_-]+)$/i.exec(tokenOf(board));
  if (!m) return undefined;
  return { tenant: m[1], wd: m[2], site: m[3], root: `https://${m[1]}.${m[2]}.myworkdayjobs.com/${m[3]}` };
}

/** "…/job/Berlin/Data-Engineer_R-1042" → "R-1042" (the requisition id Workday appends). */
function idFromPath(path: string | undefined): string | undefined {
  const m = path ? /_([A-Za-z0-9-]+)$/.exec(path) : null;
  return m ? m[1] : undefined;
}

interface Item {
  summary?: Obj;
  info?: Obj;
  /** The employer of the detail response (`hiringOrganization` beside `jobPostingInfo`). */
  employer?: string;
}

function itemId(it: Item): string | undefined {
  return (
    str(it.info?.jobReqId) ??
    str(asArray(it.summary?.bulletFields)[0]) ??
    idFromPath(str(it.summary?.externalPath) ?? str(it.info?.externalPath))
  );
}

function nameOf(org: unknown): string | undefined {
  return isObj(org) ? str(org.name) : undefined;
}

/** The detail's posting info and employer, from a detail response (or a row that embeds one). */
function detailOf(d: unknown): Pick<Item, 'info' | 'employer'> {
  if (!isObj(d)) return {};
  if (isObj(d.detail)) return detailOf(d.detail);
  const info = isObj(d.jobPostingInfo) ? d.jobPostingInfo : undefined;
  return { info, employer: nameOf(d.hiringOrganization) ?? nameOf(info?.hiringOrganization) };
}

function itemsOf(body: unknown): Item[] {
  if (isObj(body) && Array.isArray(body.jobPostings)) {
    const details = isObj(body.details) ? body.details : {};
    return body.jobPostings.map((s) => {
      if (!isObj(s)) return {};
      const keyed = detailOf(details[str(s.externalPath) ?? '']);
      const embedded = detailOf(s);
      return {
        summary: s,
        info: keyed.info ?? embedded.info,
        employer: keyed.employer ?? embedded.employer,
      };
    });
  }
  if (isObj(body) && isObj(body.jobPostingInfo)) return [detailOf(body)];
  if (Array.isArray(body) && body.some((d) => isObj(d) && isObj(d.jobPostingInfo)))
    return body.map((d) => detailOf(d));
  throw new AdapterFormatError('workday', 'expected {jobPostings:[…]} or {jobPostingInfo}');
}

/** The country of a detail: `country.descriptor` ("Canada"), else its ISO code. */
function countryOf(info: Obj): string | undefined {
  const c = info.country;
  if (!isObj(c)) return country(c);
  return country(c.descriptor) ?? country(c.alpha2Code) ?? country(c.id);
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('workday', payload);
  const items = itemsOf(body);
  const site = workdaySite(ctx.board);
  // A list saved with one employer for the whole board.
  const boardEmployer = isObj(body) ? nameOf(body.hiringOrganization) : undefined;

  return mapItems(
    items,
    (it) => itemId(it as Item),
    (obj, id) => {
      const it = obj as Item;
      const s = it.summary ?? {};
      const info = it.info ?? {};
      const path = str(s.externalPath) ?? str(info.externalPath);
      const url = httpUrl(info.externalUrl) ?? (site && path ? `${site.root}${path}` : undefined);
      if (!url) throw new Reject('no externalUrl and no externalPath to build the URL from');
      const listText = str(s.locationsText);
      const raw = [
        str(info.location),
        ...asArray(info.additionalLocations).map(str),
        // "2 Locations" is a count, not a place.
        !info.location && listText && !/^\d+\s+locations?$/i.test(listText) ? listText : undefined,
      ].filter((x): x is string => !!x);
      // The detail names the country of its primary location only; the additional locations' countries
      // come from their strings at enrichment (the primary country is the context they are read in).
      const c = countryOf(info);
      const work = workplace(info.remoteType);
      return {
        id: `workday:${id}`,
        source: ctx.source,
        title: requireTitle(info.title ?? s.title),
        company: companyOf(
          ctx,
          it.employer ??
            boardEmployer ??
            // Without a registry name the tenant ("nordkap") names the employer better than the token.
            (ctx.company?.name ? undefined : site?.tenant),
        ),
        url,
        canonical_url: url,
        description_html: str(info.jobDescription),
        location: location({
          raw,
          remote: work === 'Remote' ? true : undefined,
          countries: c ? [c] : undefined,
        }),
        work_arrangement: work,
        employment_type: employmentTypes(info.timeType),
        requisition_id: str(info.jobReqId) ?? str(asArray(s.bulletFields)[0]),
        // The detail's start date is stable; the list's "Posted N Days Ago" is relative to ctx.now.
        posted_at: toIsoUtc(info.startDate) ?? relativePosted(info.postedOn ?? s.postedOn, ctx.now),
        // The posting's end date (Broadcom, AIG): past it the posting is expired.
        expires_at: toIsoUtc(info.endDate),
        board: ctx.board,
      };
    },
  );
}

export const workday: Adapter = { format: 'workday', parse };
