// Ashby posting API: `{apiVersion, jobs:[…]}` from /posting-api/job-board/{board}?includeCompensation=true.
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
const INTERVAL: Record<string, string> = Object.setPrototypeOf(
  {
    '1 YEAR': 'YEAR',
    '1 MONTH': 'MONTH',
    '1 WEEK': 'WEEK',
    '1 DAY': 'DAY',
    '1 HOUR': 'HOUR',
  },
  null,
);

function salaryComponent(c: unknown): SalaryInput | undefined {
  if (!isObj(c) || c.compensationType !== 'Salary') return undefined;
  return salary({
    min: amount(c.minValue),
    max: amount(c.maxValue),
    currency: str(c.currencyCode)?.toUpperCase(),
    unit: INTERVAL[str(c.interval) ?? ''],
    // "Range listed is OTE $220K – $250K": what the range is, read by enrichment (OTE is no base salary).
    text: str(c.summary),
  });
}

/**
 * One tier with a Salary component: that range. Several tiers (zones, levels): the overall range
 * Ashby computes in summaryComponents, or min..max over tiers of one currency and interval; the
 * tier summary text is kept so the tiers are not lost.
 */
function compensation(job: Obj): SalaryInput | undefined {
  const comp = isObj(job.compensation) ? job.compensation : undefined;
  if (!comp) return undefined;
  const text = str(comp.compensationTierSummary) ?? str(comp.scrapeableCompensationSalarySummary);
  const tierObjs = asArray(comp.compensationTiers).filter(isObj);
  const tiers = tierObjs
    .map((t) => asArray(t.components).map(salaryComponent).find(Boolean))
    .filter((t): t is SalaryInput => !!t);
  if (tiers.length === 1) {
    // The tier's own summary ("Base Salary $120K • … Breakdown of OTE is: $72,000 base salary") says
    // more than the board-wide one.
    const tierText = [str(tierObjs[0]?.tierSummary), tiers[0].text].filter(Boolean).join(' • ');
    return salary({ ...tiers[0], text: tierText || text });
  }
  const summary = asArray(comp.summaryComponents).map(salaryComponent).find(Boolean);
  if (summary) return salary({ ...summary, text });
  if (tiers.length > 1 && tiers.every((t) => t.currency === tiers[0].currency && t.unit === tiers[0].unit)) {
    const mins = tiers.map((t) => t.min ?? t.max!);
    const maxs = tiers.map((t) => t.max ?? t.min!);
    return salary({
      min: Math.min(...mins),
      max: Math.max(...maxs),
      currency: tiers[0].currency,
      unit: tiers[0].unit,
      text,
    });
  }
  return text ? { text } : undefined;
}

function postal(address: unknown): Obj | undefined {
  return isObj(address) && isObj(address.postalAddress) ? address.postalAddress : undefined;
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  const body = parseJson('ashby', payload);
  if (!isObj(body) || !Array.isArray(body.jobs)) throw new AdapterFormatError('ashby', 'expected {jobs:[…]}');
  return mapItems(
    body.jobs,
    (j) => str((j as Obj).id),
    (job, id) => {
      if (job.isListed === false) return null;
      const addresses = [
        postal(job.address),
        ...asArray(job.secondaryLocations).map((s) => (isObj(s) ? postal(s.address) : undefined)),
      ].filter((a): a is Obj => !!a);
      const raw = [
        str(job.location),
        ...asArray(job.secondaryLocations).map((s) => (isObj(s) ? str(s.location) : undefined)),
      ];
      const work = workplace(job.workplaceType) ?? (job.isRemote === true ? 'Remote' : undefined);
      const url = requireUrl(job.jobUrl, 'jobUrl');
      const html = str(job.descriptionHtml);
      return {
        id: `ashby:${id}`,
        source: ctx.source,
        title: requireTitle(job.title),
        company: companyOf(ctx, str(job.organizationName)),
        url,
        apply_url: httpUrl(job.applyUrl),
        canonical_url: url,
        description_html: html,
        description_text: html ? undefined : str(job.descriptionPlain),
        location: location({
          raw: raw.filter((x): x is string => !!x),
          remote: job.isRemote === true || work === 'Remote' ? true : undefined,
          countries: addresses.map((a) => country(a.addressCountry)).filter((x): x is string => !!x),
          cities: addresses.map((a) => str(a.addressLocality)).filter((x): x is string => !!x),
          regions: addresses.map((a) => str(a.addressRegion)).filter((x): x is string => !!x),
        }),
        work_arrangement: work,
        employment_type: employmentTypes(job.employmentType),
        department: str(job.department),
        team: str(job.team),
        posted_at: toIsoUtc(job.publishedAt),
        salary: compensation(job),
        board: ctx.board,
      };
    },
  );
}

export const ashby: Adapter = { format: 'ashby', parse };
