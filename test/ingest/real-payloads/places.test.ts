// Places of every genuine payload as a reader takes them from it (city, region, country, remote), against
// what the Job shows after the adapter and the ingest's enrichment. The expected places are written from
// reading the payloads; where a payload is silent on a fact, the fact is not asserted.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_PAYLOADS, REAL_PAYLOADS_ABSENT } from '../../helpers/real-payloads.ts';
import { type Fact, loadJobs, type Places, placeFacts, tally, wrong } from './facts.ts';

const US = 'United States';
const UK = 'United Kingdom';
const all: Fact[] = [];
afterAll(() => tally('places', all));

/** Places of a location text as a reader reads it. */
const PLACE: Record<string, Places> = {
  // Greenhouse location names (one part of a ";"-separated list).
  'Bangalore, India': { cities: ['Bengaluru'], regions: ['Karnataka'], countries: ['India'] },
  Bellevue: { cities: ['Bellevue'], regions: ['Washington'], countries: [US] },
  'Bellevue, WA': { cities: ['Bellevue'], regions: ['Washington'], countries: [US] },
  'Chicago, IL': { cities: ['Chicago'], regions: ['Illinois'], countries: [US] },
  'Chicago, Illinois, United States': { cities: ['Chicago'], regions: ['Illinois'], countries: [US] },
  'Clearwater, FL': { cities: ['Clearwater'], regions: ['Florida'], countries: [US] },
  'Denver, CO': { cities: ['Denver'], regions: ['Colorado'], countries: [US] },
  'Detroit, MI': { cities: ['Detroit'], regions: ['Michigan'], countries: [US] },
  'Draper, Utah, United States': { cities: ['Draper'], regions: ['Utah'], countries: [US] },
  Dublin: { cities: ['Dublin'], countries: ['Ireland'] },
  'Dublin, IE': { cities: ['Dublin'], countries: ['Ireland'] },
  'Indiana-Remote': { cities: [], regions: ['Indiana'], countries: [US], remote: true },
  'Lake Mary, FL': { cities: ['Lake Mary'], regions: ['Florida'], countries: [US] },
  'London, UK': { cities: ['London'], countries: [UK] },
  'Memphis, TN': { cities: ['Memphis'], regions: ['Tennessee'], countries: [US] },
  'Menlo Park, CA': { cities: ['Menlo Park'], regions: ['California'], countries: [US] },
  'Minnesota-Remote': { cities: [], regions: ['Minnesota'], countries: [US], remote: true },
  'New York': { cities: ['New York'], regions: ['New York'], countries: [US] },
  'New York City': { cities: ['New York'], regions: ['New York'], countries: [US] },
  'New York, NY': { cities: ['New York'], regions: ['New York'], countries: [US] },
  'Palo Alto / San Francisco Bay Area': { cities: ['Palo Alto'], regions: ['California'], countries: [US] },
  'Palo Alto, CA': { cities: ['Palo Alto'], regions: ['California'], countries: [US] },
  Remote: { cities: [], regions: [], countries: [], remote: true },
  'San Francisco': { cities: ['San Francisco'], regions: ['California'], countries: [US] },
  'San Francisco, CA': { cities: ['San Francisco'], regions: ['California'], countries: [US] },
  'San Francisco, California, USA': { cities: ['San Francisco'], regions: ['California'], countries: [US] },
  'San Francisco, California, United States': {
    cities: ['San Francisco'],
    regions: ['California'],
    countries: [US],
  },
  'Seattle, Washington, United States': { cities: ['Seattle'], regions: ['Washington'], countries: [US] },
  'Singapore, SG': { cities: ['Singapore'], countries: ['Singapore'] },
  'Tokyo, JP': { cities: ['Tokyo'], countries: ['Japan'] },
  'Toronto, Canada': { cities: ['Toronto'], regions: ['Ontario'], countries: ['Canada'] },
  'Toronto, ON, CA': { cities: ['Toronto'], regions: ['Ontario'], countries: ['Canada'] },
  'United States': { cities: [], regions: [], countries: [US] },
  'Washington, DC': { cities: ['Washington, D.C.'], regions: ['District of Columbia'], countries: [US] },
  'Westlake, TX': { cities: ['Westlake'], regions: ['Texas'], countries: [US] },
  // Ashby location names.
  'New York, NY (HQ)': { cities: ['New York'], regions: ['New York'], countries: [US] },
  'Miami, FL': { cities: ['Miami'], regions: ['Florida'], countries: [US] },
  'Washington, D.C.': { cities: ['Washington, D.C.'], regions: ['District of Columbia'], countries: [US] },
  'Remote (US)': { cities: [], regions: [], countries: [US], remote: true },
  'Remote (Canada)': { cities: [], regions: [], countries: ['Canada'], remote: true },
  'Remote (US or Canada)': { cities: [], regions: [], countries: [US, 'Canada'], remote: true },
  Canada: { cities: [], regions: [], countries: ['Canada'] },
  'Toronto, Ontario': { cities: ['Toronto'], regions: ['Ontario'], countries: ['Canada'] },
  Latvia: { cities: [], regions: [], countries: ['Latvia'] },
  'US Remote': { cities: [], regions: [], countries: [US], remote: true },
  'Austin, TX': { cities: ['Austin'], regions: ['Texas'], countries: [US] },
  'Indianapolis, IN': { cities: ['Indianapolis'], regions: ['Indiana'], countries: [US] },
  'Los Angeles, CA': { cities: ['Los Angeles'], regions: ['California'], countries: [US] },
  'Minneapolis, MN': { cities: ['Minneapolis'], regions: ['Minnesota'], countries: [US] },
  'Nashville, TN': { cities: ['Nashville'], regions: ['Tennessee'], countries: [US] },
  'Salt Lake City, UT': { cities: ['Salt Lake City'], regions: ['Utah'], countries: [US] },
  'Foster City, CA': { cities: ['Foster City'], regions: ['California'], countries: [US] },
  'Seattle, WA': { cities: ['Seattle'], regions: ['Washington'], countries: [US] },
  'Remote, Philippines': { cities: [], regions: [], countries: ['Philippines'], remote: true },
  Philippines: { cities: [], regions: [], countries: ['Philippines'] },
  India: { cities: [], regions: [], countries: ['India'] },
  Thailand: { cities: [], regions: [], countries: ['Thailand'] },
  Vietnam: { cities: [], regions: [], countries: ['Vietnam'] },
  'United Kingdom': { cities: [], regions: [], countries: [UK] },
  France: { cities: [], regions: [], countries: ['France'] },
  Netherlands: { cities: [], regions: [], countries: ['Netherlands'] },
  Spain: { cities: [], regions: [], countries: ['Spain'] },
  Poland: { cities: [], regions: [], countries: ['Poland'] },
  Portugal: { cities: [], regions: [], countries: ['Portugal'] },
  Argentina: { cities: [], regions: [], countries: ['Argentina'] },
  Colombia: { cities: [], regions: [], countries: ['Colombia'] },
  Guatemala: { cities: [], regions: [], countries: ['Guatemala'] },
  Mexico: { cities: [], regions: [], countries: ['Mexico'] },
  Dubai: { cities: ['Dubai'], countries: ['United Arab Emirates'] },
  KSA: { cities: ['Riyadh'], countries: ['Saudi Arabia'] },
  'US - Remote': { cities: [], regions: [], countries: [US], remote: true },
  'US - Bay Area': { cities: [], regions: ['California'], countries: [US] },
};

/** The union of several places; a fact unasserted in one is unasserted in the union. */
function union(places: Places[], remote?: boolean): Places {
  const out: Places = { cities: [], regions: [], countries: [], remote };
  for (const p of places) {
    out.countries = [...new Set([...out.countries, ...p.countries])];
    out.cities = p.cities && out.cities ? [...new Set([...out.cities, ...p.cities])] : undefined;
    out.regions = p.regions && out.regions ? [...new Set([...out.regions, ...p.regions])] : undefined;
    if (p.remote && remote === undefined) out.remote = true;
  }
  if (out.remote === undefined) out.remote = false;
  return out;
}

function placesOf(texts: string[], remote?: boolean): Places {
  return union(
    texts.map((t) => {
      const p = PLACE[t.trim()];
      if (!p) throw new Error(`no place written for ${JSON.stringify(t)}`);
      return p;
    }),
    remote,
  );
}

const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(REAL_PAYLOADS, rel), 'utf8'));

async function check(format: string, file: string, want: Record<string, Places>, ctx = {}) {
  const { jobs, file: report } = await loadJobs(format, file, ctx);
  const facts: Fact[] = [];
  for (const [id, places] of Object.entries(want)) {
    const got = jobs.get(id);
    if (!got) {
      // Not loaded: every place fact of the posting is wrong.
      for (const f of ['countries', 'cities', 'regions', 'remote'] as const)
        if (places[f] !== undefined)
          facts.push({ format, id, fact: f, expected: places[f], actual: 'not loaded', ok: false });
      continue;
    }
    facts.push(...placeFacts(format, id, got.job, places));
  }
  all.push(...facts);
  // Soft: the other files of one test are still checked (and counted).
  expect.soft({ error: report.error, wrong: wrong(facts) }).toEqual({ error: undefined, wrong: [] });
}

describe.skipIf(REAL_PAYLOADS_ABSENT)(
  `places of the genuine payloads${REAL_PAYLOADS_ABSENT ? ` (${REAL_PAYLOADS_ABSENT})` : ''}`,
  () => {
    describe('greenhouse', () => {
      // Single jobs: the location name, read with the offices where the name alone is unclear.
      const singles: Record<string, Record<string, Places>> = {
        'matchaboar__srajob2__axon-job-7546641003.json': {
          'greenhouse:7546641003': placesOf(
            ['Chicago, Illinois, United States', 'Detroit, MI', 'Indiana-Remote', 'Minnesota-Remote'],
            true,
          ),
        },
        'matchaboar__srajob2__datadog-job-7449072.json': {
          'greenhouse:7449072': placesOf(['San Francisco, California, USA']),
        },
        'matchaboar__srajob2__mithril-job-4604609007.json': {
          // "Palo Alto / San Francisco Bay Area", office "In-Office [Palo Alto, CA OR San Francisco, CA]".
          'greenhouse:4604609007': {
            cities: ['Palo Alto'],
            regions: ['California'],
            countries: [US],
            remote: false,
          },
        },
        'matchaboar__srajob2__mongodb-job-7335945.json': {
          'greenhouse:7335945': placesOf(['New York City']),
        },
        'matchaboar__srajob2__nexhealth-job-5709065004.json': {
          'greenhouse:5709065004': placesOf(['United States']),
        },
        'matchaboar__srajob2__pinterest-job-5572858.json': {
          'greenhouse:5572858': placesOf(['Toronto, ON, CA']),
        },
        // "Remote - MA", office "Remote - US", pay in USD: remote in Massachusetts.
        'matchaboar__srajob2__samsara-job-7245557.json': {
          'greenhouse:7245557': { cities: [], regions: ['Massachusetts'], countries: [US], remote: true },
        },
        // "Dublin", office "Ireland Locations".
        'matchaboar__srajob2__stripe-job-7313002.json': { 'greenhouse:7313002': placesOf(['Dublin']) },
        // "Bellevue", office "Bellevue"; the text names Washington.
        'matchaboar__srajob2__thetradedesk-job-5001698007.json': {
          'greenhouse:5001698007': placesOf(['Bellevue']),
        },
        'matchaboar__srajob2__togetherai-job-4967737007.json': {
          'greenhouse:4967737007': placesOf(['San Francisco']),
        },
        // "Palo Alto, CA", offices "Palo Alto, CA" and "Remote".
        'matchaboar__srajob2__xai-job-5012607007.json': {
          'greenhouse:5012607007': { ...placesOf(['Palo Alto, CA']), remote: undefined },
        },
        'omoji-personal__careerkit__amplitude-board-trimmed.json': {
          'greenhouse:8636903002': placesOf(['London, UK']),
          // "Bangalore, India", office "Remote-India (PEO)".
          'greenhouse:8651132002': placesOf(['Bangalore, India'], true),
        },
        'grnhse__greenhouse_io__generalassembly-2013-vcr-body.json': {
          'greenhouse:721': placesOf(['New York, NY']),
          'greenhouse:722': placesOf(['New York']),
        },
      };
      for (const [file, want] of Object.entries(singles)) it(file, () => check('greenhouse', file, want));

      // Board lists: each job's ";"-separated location name.
      for (const file of [
        'matchaboar__srajob2__robinhood-board-list-nocontent.json',
        'matchaboar__srajob2__nexhealth-board-list-nocontent.json',
        'matchaboar__srajob2__xai-board-list-nocontent-first30.json',
      ]) {
        it(file, () => {
          const want: Record<string, Places> = {};
          for (const j of read(`greenhouse/${file}`).jobs)
            want[`greenhouse:${j.id}`] = placesOf(String(j.location.name).split(';'));
          return check('greenhouse', file, want);
        });
      }
    });

    describe('ashby', () => {
      for (const file of [
        'matchaboar__srajob2__ramp-board-first20.json',
        'omoji-personal__careerkit__highlightta-board-trimmed.json',
        'stapply-ai__ats-scrapers__Levelpath.json',
        'stapply-ai__ats-scrapers__givebutter.json',
        'stapply-ai__ats-scrapers__reedsy.json',
        'stapply-ai__ats-scrapers__sully-ai.json',
      ]) {
        it(file, () => {
          const want: Record<string, Places> = {};
          for (const j of read(`ashby/${file}`).jobs) {
            const texts = [
              j.location,
              ...(j.secondaryLocations ?? []).map((s: { location: string }) => s.location),
            ];
            // Remote as the posting states it: isRemote / workplaceType, else the location names.
            const remote =
              j.workplaceType === 'Hybrid'
                ? false
                : j.isRemote === true || j.workplaceType === 'Remote'
                  ? true
                  : undefined;
            // A secondary location named "Remote" only adds the country its address gives.
            const named = texts.filter((t: string) => t !== 'Remote');
            const extra = (j.secondaryLocations ?? [])
              .filter((s: { location: string }) => s.location === 'Remote')
              .map(
                (s: { address?: { postalAddress?: { addressCountry?: string } } }) =>
                  s.address?.postalAddress?.addressCountry,
              )
              .filter(Boolean);
            const p = placesOf(named.length ? named : ['Remote'], remote);
            if (j.location === 'Remote' && j.address?.postalAddress?.addressCountry)
              extra.push(j.address.postalAddress.addressCountry);
            p.countries = [...new Set([...p.countries, ...extra])];
            want[`ashby:${j.id}`] = p;
          }
          return check('ashby', file, want);
        });
      }
    });

    it('workday: Broadcom details ("USA-WA-Bellevue - 108th Ave", "USA-CA - Promontory A")', async () => {
      await check('workday', 'matchaboar__srajob2__broadcom-detail-R024215.json', {
        'workday:R024215': {
          cities: ['Bellevue'],
          regions: ['Washington', 'California'],
          countries: [US],
          remote: false,
        },
      });
      await check('workday', 'matchaboar__srajob2__broadcom-detail-R024240.json', {
        'workday:R024240': { cities: [], regions: ['California'], countries: [US], remote: false },
      });
    });

    it('workday: Dataminr detail ("US Remote" and "New York, NY")', () =>
      check('workday', 'matchaboar__srajob2__dataminr-detail-JR1652.json', {
        'workday:JR1652': { cities: ['New York'], regions: ['New York'], countries: [US], remote: true },
      }));

    it('workday: 3M list with details', () =>
      check('workday', '../repacked/workday__Japesh285__SIte_scrapper__3m-list-with-details.json', {
        'workday:R01163771': { cities: [], regions: ['California'], countries: [US], remote: true },
        'workday:R01163369': {
          cities: [],
          regions: ['Alabama', 'Mississippi'],
          countries: [US],
          remote: true,
        },
        'workday:R01163338': {
          cities: ['Maplewood'],
          regions: ['Minnesota'],
          countries: [US],
          remote: false,
        },
        'workday:R01163619': {
          cities: ['Maplewood'],
          regions: ['Minnesota'],
          countries: [US],
          remote: false,
        },
        // "PH, Taguig" with "IN, Bangalore Kar" and "IN, BANGALORE".
        'workday:R01157303': {
          cities: ['Taguig', 'Bengaluru'],
          countries: ['Philippines', 'India'],
          remote: false,
        },
      }));

    it('workday: AIG list with details', () => {
      const us = (cities: string[], regions: string[]): Places => ({
        cities,
        regions,
        countries: [US],
        remote: false,
      });
      return check('workday', '../repacked/workday__Japesh285__SIte_scrapper__aig-list-with-details.json', {
        'workday:JR2601392': { cities: ['Singapore'], countries: ['Singapore'], remote: false },
        'workday:JR2601097': { cities: ['Singapore'], countries: ['Singapore'], remote: false },
        'workday:JR2601281': { cities: ['Singapore'], countries: ['Singapore'], remote: false },
        'workday:JR2502100': us(
          ['Charlotte', 'Atlanta', 'Houston', 'Philadelphia'],
          ['North Carolina', 'Georgia', 'Texas', 'Pennsylvania'],
        ),
        'workday:JR2504494': { cities: ['London'], countries: [UK], remote: false },
        // "Bermuda-Pembroke" with "NY-New York".
        'workday:JR2506067': { cities: ['Pembroke', 'New York'], countries: ['Bermuda', US], remote: false },
        'workday:JR2600124': us(['Parsippany'], ['New Jersey']),
        'workday:JR2601156': us(['Parsippany', 'Atlanta'], ['New Jersey', 'Georgia']),
        'workday:JR2600715': us(['New York', 'Parsippany', 'Jersey City'], ['New York', 'New Jersey']),
        'workday:JR2601057': us(['Philadelphia'], ['Pennsylvania']),
        'workday:JR2600860': { cities: ['Mexico City'], countries: ['Mexico'], remote: false },
        'workday:JR2506813': { cities: [], regions: ['Georgia'], countries: [US], remote: true },
        'workday:JR2601407': {
          cities: ['Toronto'],
          regions: ['Ontario'],
          countries: ['Canada'],
          remote: false,
        },
        'workday:JR2600146': us(
          ['New York', 'Wilton', 'Parsippany'],
          ['New York', 'Connecticut', 'New Jersey'],
        ),
        'workday:JR2506542': { cities: ['Vienna'], countries: ['Austria'], remote: false },
        'workday:JR2600904': { cities: ['Manchester'], countries: [UK], remote: false },
        'workday:JR2600903': { cities: ['Vienna'], countries: ['Austria'], remote: false },
        'workday:JR2503868': us(
          [
            'Atlanta',
            'Charlotte',
            'Dallas',
            'New York',
            'Wilton',
            'Philadelphia',
            'Jersey City',
            'Parsippany',
            'Houston',
            'Farmington',
            'Reston',
            'Chicago',
            'Boston',
          ],
          [
            'Georgia',
            'North Carolina',
            'Texas',
            'New York',
            'Connecticut',
            'Pennsylvania',
            'New Jersey',
            'Virginia',
            'Illinois',
            'Massachusetts',
          ],
        ),
        'workday:JR2601157': { cities: ['Dublin'], countries: ['Ireland'], remote: false },
        'workday:JR2601359': {
          cities: ['Frankfurt am Main', 'Munich', 'Heilbronn', 'Hamburg'],
          countries: ['Germany'],
          remote: false,
        },
      });
    });

    describe('jsonld', () => {
      const pages: Record<string, [string, Places]> = {
        'matchaboar__srajob2__ashby-lambda-technical-sourcing-manager.html': [
          'careerboard:0d79c70e-7a49-4a4a-a72f-7ef25d62de41',
          { cities: ['San Jose'], regions: ['California'], countries: [US], remote: true },
        ],
        // Remote, applicants in the United States or Canada.
        'matchaboar__srajob2__ashby-ramp-fraud-risk-associate.html': [
          'careerboard:caf900ec-0107-436b-88bf-2bc24174e6b9',
          { cities: ['New York'], regions: ['New York'], countries: [US, 'Canada'], remote: true },
        ],
        'matchaboar__srajob2__coupang-jobs-7486748.html': [
          'careerboard:8799',
          { cities: ['Singapore'], countries: ['Singapore'], remote: false },
        ],
        // Every field but the country says "UNAVAILABLE".
        'matchaboar__srajob2__github-careers-jibe-4648.html': [
          'careerboard:0541d703151adfa4',
          { cities: [], regions: [], countries: ['Australia'] },
        ],
        'matchaboar__srajob2__paloaltonetworks-talentbrew-jr-011926.html': [
          'careerboard:JR-011926',
          { cities: ['Santa Clara'], regions: ['California'], countries: [US], remote: false },
        ],
        'yiakhuat__hermes-agent-setup__ashby-echotwin-tpm.html': [
          'careerboard:93888d8f-d32c-4213-8768-93b2bc63fc03',
          { cities: ['San Francisco'], regions: ['California'], countries: [US], remote: false },
        ],
        'yiakhuat__hermes-agent-setup__ashby-superhuman-tpm-growth.html': [
          'careerboard:700c8d97-6ee3-4cb3-afff-b1e2fa157b1c',
          { cities: ['San Francisco'], regions: ['California'], countries: [US], remote: true },
        ],
        'yiakhuat__hermes-agent-setup__builtinsf-superhuman-tpm-growth.html': [
          'careerboard:9383286',
          { cities: ['San Francisco'], regions: ['California'], countries: [US], remote: false },
        ],
        'yiakhuat__hermes-agent-setup__builtinsf-zoox-tpm.html': [
          'careerboard:9408262',
          { cities: ['Foster City'], regions: ['California'], countries: [US], remote: false },
        ],
      };
      for (const [file, [id, places]] of Object.entries(pages))
        it(file, () => check('jsonld', file, { [id]: places }, { source: 'careerboard' }));
      it('matchaboar__srajob2__netflix-eightfold-790313323421.html', async () => {
        // Only the country is given; the id is a hash of the URL.
        const { jobs } = await loadJobs(
          'jsonld',
          'matchaboar__srajob2__netflix-eightfold-790313323421.html',
          {
            source: 'careerboard',
          },
        );
        const [id, got] = [...jobs][0] ?? [];
        const facts = got
          ? placeFacts('jsonld', id, got.job, { cities: [], regions: [], countries: [US] })
          : [];
        all.push(...facts);
        expect(jobs.size).toBe(1);
        expect(wrong(facts)).toEqual([]);
      });
    });

    it('workable: one job listed once per country is one posting in both countries', () =>
      check('workable', 'omoji-personal__careerkit__zaelab-widget-trimmed.json', {
        'workable:DD136DD7E7': { cities: [], regions: [], countries: ['Spain', 'Portugal'], remote: true },
      }));

    it('personio', async () => {
      await check('personio', 'omoji-personal__careerkit__sanitized-acme.xml', {
        'personio:1834171': { cities: ['Munich', 'Berlin'], countries: ['Germany'], remote: false },
      });
      const london: Places = { cities: ['London'], countries: [UK], remote: false };
      const remote: Places = { cities: [], regions: [], countries: [], remote: true };
      await check('personio', 'threadi__wp-personio-integration-light__example-jobs.xml', {
        'personio:681100': remote,
        'personio:681097': london,
        'personio:681098': london,
      });
      await check('personio', 'threadi__wp-personio-integration-light__tests-positions.xml', {
        'personio:2140231': london,
        'personio:2140224': remote,
        'personio:2140235': remote,
        'personio:2140230': london,
        // Manchester with no country: the English city, not the Jamaican parish.
        'personio:2140233': { cities: ['Manchester'], countries: [UK], remote: false },
        'personio:2140229': london,
        'personio:2140228': london,
        'personio:2140232': london,
        'personio:2140221': london,
        'personio:2140222': { cities: ['Amsterdam'], countries: ['Netherlands'], remote: false },
        'personio:2140236': remote,
      });
    });

    it('lever', async () => {
      await check('lever', 'HeisenbergI8__job-automation-app__zoox-trimmed.json', {
        'lever:f4746da4-8eb8-43e2-b7ce-bf3c7cf9640d': placesOf(['Foster City, CA'], false),
      });
      await check('lever', 'omoji-personal__careerkit__idealistconsulting-trimmed.json', {
        'lever:a24ec4e5-5caa-473d-abd4-b71f09a8167b': { ...placesOf(['Chicago, IL']), remote: true },
        'lever:5d54d69b-e940-452e-b892-1170aa60f095': { ...placesOf(['Washington, DC']), remote: true },
      });
    });

    it('recruitee: "Berlin, BE, Germany", hybrid', () =>
      check('recruitee', 'omoji-personal__careerkit__offers-sanitized-acme.json', {
        'recruitee:2700825': {
          cities: ['Berlin'],
          regions: ['Berlin'],
          countries: ['Germany'],
          remote: false,
        },
        'recruitee:2697184': {
          cities: ['Berlin'],
          regions: ['Berlin'],
          countries: ['Germany'],
          remote: false,
        },
      }));

    it('smartrecruiters: St. Louis, MO', () =>
      check('smartrecruiters', 'omoji-personal__careerkit__knight-list-1posting.json', {
        'smartrecruiters:743999671674844': {
          cities: ['St. Louis'],
          regions: ['Missouri'],
          countries: [US],
          remote: false,
        },
      }));
  },
);
