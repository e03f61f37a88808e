// The genuine payloads converted by their adapter and enriched, per file, for the corpus suites: the facts
// a reader takes from a posting are asserted against what `enrichPosting` makes of it.
import { enrichPosting } from '../../../src/enrich/posting.ts';
import type { ConvertContext } from '../../../src/ingest/adapters/index.ts';
import type { EnrichedPosting } from '../../../src/model/enriched.ts';
import type { PostingRecord } from '../../../src/model/record.ts';
import { loadReal } from '../../helpers/real-payloads.ts';

export interface Enriched {
  rec: PostingRecord;
  job: EnrichedPosting;
}

const cache = new Map<string, Promise<Map<string, Enriched>>>();

/** The postings of one payload file by id, enriched; `file` is relative to the format's folder. */
export function enrichedFile(format: string, file: string, ctx: ConvertContext = {}) {
  const key = `${format}/${file}/${JSON.stringify(ctx)}`;
  let p = cache.get(key);
  if (!p) {
    p = loadReal(format, file, ctx).then(({ postings }) => {
      const out = new Map<string, Enriched>();
      for (const [id, rec] of postings) out.set(id, { rec, job: enrichPosting(rec) });
      return out;
    });
    cache.set(key, p);
  }
  return p;
}

/** The one posting whose id starts with `prefix` (ids are long; the tables name them by their start). */
export function byPrefix(postings: Map<string, Enriched>, prefix: string): Enriched {
  const hits = [...postings.keys()].filter((id) => id.startsWith(prefix));
  if (hits.length !== 1) throw new Error(`${hits.length} postings start with ${prefix}`);
  return postings.get(hits[0])!;
}

/** Where the corpus files are: their format, file and the context a user loads them with. */
export const FILES = {
  ashbyRamp: ['ashby', 'matchaboar__srajob2__ramp-board-first20.json', { token: 'ramp' }],
  ashbyHighlight: ['ashby', 'omoji-personal__careerkit__highlightta-board-trimmed.json', {}],
  ashbyLevelpath: ['ashby', 'stapply-ai__ats-scrapers__Levelpath.json', { token: 'levelpath' }],
  ashbyGivebutter: ['ashby', 'stapply-ai__ats-scrapers__givebutter.json', { token: 'givebutter' }],
  ashbyReedsy: ['ashby', 'stapply-ai__ats-scrapers__reedsy.json', { token: 'reedsy' }],
  ashbySully: ['ashby', 'stapply-ai__ats-scrapers__sully-ai.json', { token: 'sully-ai' }],
  greenhouseDetails: [
    'greenhouse',
    '../repacked/greenhouse__matchaboar__srajob2__details-as-board-list.json',
    {},
  ],
  greenhouseDatadog: ['greenhouse', 'matchaboar__srajob2__datadog-job-7449072.json', {}],
  greenhouseAmplitude: ['greenhouse', 'omoji-personal__careerkit__amplitude-board-trimmed.json', {}],
  greenhouseGa: ['greenhouse', 'grnhse__greenhouse_io__generalassembly-2013-vcr-body.json', {}],
  greenhouseRobinhood: ['greenhouse', 'matchaboar__srajob2__robinhood-board-list-nocontent.json', {}],
  greenhouseXai: ['greenhouse', 'matchaboar__srajob2__xai-board-list-nocontent-first30.json', {}],
  greenhouseNexhealth: ['greenhouse', 'matchaboar__srajob2__nexhealth-board-list-nocontent.json', {}],
  leverZoox: ['lever', 'HeisenbergI8__job-automation-app__zoox-trimmed.json', {}],
  leverIdealist: ['lever', 'omoji-personal__careerkit__idealistconsulting-trimmed.json', {}],
  personioTests: ['personio', 'threadi__wp-personio-integration-light__tests-positions.xml', {}],
  personioExample: ['personio', 'threadi__wp-personio-integration-light__example-jobs.xml', {}],
  recruitee: ['recruitee', 'omoji-personal__careerkit__offers-sanitized-acme.json', {}],
  smartrecruiters: ['smartrecruiters', 'omoji-personal__careerkit__knight-list-1posting.json', {}],
  workable: ['workable', 'omoji-personal__careerkit__zaelab-widget-trimmed.json', {}],
  workdayBroadcom1: ['workday', 'matchaboar__srajob2__broadcom-detail-R024215.json', {}],
  workdayBroadcom2: ['workday', 'matchaboar__srajob2__broadcom-detail-R024240.json', {}],
  workdayDataminr: ['workday', 'matchaboar__srajob2__dataminr-detail-JR1652.json', {}],
  workday3m: ['workday', '../repacked/workday__Japesh285__SIte_scrapper__3m-list-with-details.json', {}],
  workdayAig: ['workday', '../repacked/workday__Japesh285__SIte_scrapper__aig-list-with-details.json', {}],
} satisfies Record<string, [string, string, ConvertContext]>;

/** A JSON-LD page, loaded as a board page with the address it was fetched from. */
export function jsonldFile(file: string, source = 'careerboard'): [string, string, ConvertContext] {
  return ['jsonld', file, { source, url: `https://example.org/pages/${file}` }];
}
