// Personio XML feed: `<workzag-jobs><position>…</position></workzag-jobs>` from
// {company}.jobs.personio.de/xml. No URL or remote flag in the feed; pay in <salaryInformation> when set.
import { XMLParser } from 'fast-xml-parser';
import type { SalaryInput } from '../../model/record.ts';
import { type Adapter, AdapterFormatError, type AdapterContext, type AdapterResult } from './types.ts';
import {
  amount,
  salary,
  salaryUnit,
  asArray,
  companyOf,
  employmentTypes,
  isObj,
  location,
  mapItems,
  type Obj,
  requireTitle,
  seniority,
  str,
  tokenOf,
  toIsoUtc,
  uniq,
} from './util.ts';

const parser = new XMLParser({
  ignoreAttributes: true,
  // Keep every value a string: ids such as "0012" and keywords must not become numbers.
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['position', 'jobDescription', 'office'].includes(name),
});

// Null prototype: looked up with payload strings, so "__proto__" or "constructor" find nothing.
const EXPERIENCE: Record<string, string> = Object.setPrototypeOf(
  {
    'lt-1': '0-2',
    '1-2': '0-2',
    '2-5': '2-5',
    '5-7': '5-10',
    '7-10': '5-10',
    '10-15': '10+',
    'gt-15': '10+',
  },
  null,
);

function types(p: Obj): string[] | undefined {
  const kind = str(p.employmentType)?.toLowerCase();
  const schedule = str(p.schedule)?.toLowerCase();
  if (kind === 'intern' || kind === 'trainee') return ['INTERN'];
  if (kind === 'freelance') return ['CONTRACTOR'];
  if (schedule === 'full-or-part-time') return ['FULL_TIME', 'PART_TIME'];
  return employmentTypes(schedule) ?? (kind ? employmentTypes(kind) : undefined);
}

/** `<salaryInformation>`: min, max (either may be empty), currencyCode, type ("yearly", "monthly", "hourly"). */
function personioSalary(v: unknown): SalaryInput | undefined {
  if (!isObj(v)) return undefined;
  return salary({
    min: amount(v.min),
    max: amount(v.max),
    currency: str(v.currencyCode)?.toUpperCase(),
    unit: salaryUnit(v.type),
  });
}

function parse(payload: string, ctx: AdapterContext): AdapterResult {
  let doc: unknown;
  try {
    doc = parser.parse(payload);
  } catch (err) {
    throw new AdapterFormatError('personio', `payload is not XML: ${(err as Error).message}`);
  }
  const root = isObj(doc) ? doc['workzag-jobs'] : undefined;
  if (root === undefined) throw new AdapterFormatError('personio', 'expected a <workzag-jobs> document');
  // An empty <workzag-jobs/> parses as "": a board with no openings.
  const positions = isObj(root) ? asArray(root.position) : [];
  const token = tokenOf(ctx.board);
  return mapItems(
    positions,
    (p) => str((p as Obj).id),
    (p, id) => {
      const offices = [
        ...asArray(p.office).map(str),
        ...(isObj(p.additionalOffices) ? asArray(p.additionalOffices.office).map(str) : []),
      ];
      const descriptions = isObj(p.jobDescriptions)
        ? asArray(p.jobDescriptions.jobDescription).filter(isObj)
        : [];
      const html = descriptions
        .map((d) => {
          const value = str(d.value);
          if (!value) return undefined;
          return `${str(d.name) ? `<h3>${str(d.name)}</h3>` : ''}${value}`;
        })
        .filter(Boolean)
        .join('\n');
      const url = `https://${token}.jobs.personio.de/job/${encodeURIComponent(id)}`;
      const keywords = uniq((str(p.keywords) ?? '').split(',').map((k) => str(k)));
      return {
        id: `personio:${id}`,
        source: ctx.source,
        title: requireTitle(p.name),
        company: companyOf(ctx, str(p.subcompany)),
        url,
        canonical_url: url,
        description_html: html || undefined,
        location: location({ raw: offices.filter((x): x is string => !!x) }),
        employment_type: types(p),
        department: str(p.department),
        seniority: seniority(p.seniority),
        experience_level: EXPERIENCE[str(p.yearsOfExperience) ?? ''],
        keywords,
        posted_at: toIsoUtc(p.createdAt),
        salary: personioSalary(p.salaryInformation),
        board: ctx.board,
      };
    },
  );
}

export const personio: Adapter = { format: 'personio', parse };
