// Every genuine payload loads whole (one posting per job it lists, none rejected), and each posting shows
// what the payload states: title, employer, page URL, expiry (live or not on the day of the corpus).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_PAYLOADS, REAL_PAYLOADS_ABSENT } from '../../helpers/real-payloads.ts';
import { type Fact, fact, isLive, loadJobs, tally, wrong } from './facts.ts';

const all: Fact[] = [];
afterAll(() => tally('postings', all));

interface Want {
  title?: string;
  employer?: string;
  url?: string;
  live?: boolean;
  expires?: string;
  apply?: string;
  /** ISO 639-1 of the description; null where it has no real text (placeholder Latin, none). */
  language?: string | null;
}

/** Loads one file and checks its postings count, rejections and each posting's stated facts. */
async function check(format: string, file: string, count: number, want: Record<string, Want>, ctx = {}) {
  const { jobs, file: report } = await loadJobs(format, file, ctx);
  const facts: Fact[] = [
    fact(format, file, 'postings', count, jobs.size),
    fact(format, file, 'rejected', [], report.rejected),
  ];
  for (const [id, w] of Object.entries(want)) {
    const got = jobs.get(id);
    const rec = got?.rec;
    // A posting that did not load gets every fact wrong.
    if (w.title) facts.push(fact(format, id, 'title', w.title, got?.job.title));
    if (w.employer) facts.push(fact(format, id, 'employer', w.employer, rec?.company.name));
    if (w.url) facts.push(fact(format, id, 'url', w.url, rec?.url));
    if (w.apply) facts.push(fact(format, id, 'apply_url', w.apply, rec?.apply_url));
    if (w.expires) facts.push(fact(format, id, 'expires', w.expires, rec?.expires_at?.slice(0, 10)));
    if (w.live !== undefined) facts.push(fact(format, id, 'live', w.live, rec ? isLive(rec) : undefined));
    if (w.language !== undefined) facts.push(fact(format, id, 'language', w.language, got?.job.job_language));
  }
  all.push(...facts);
  // Soft: the other files of one test are still checked (and counted).
  expect.soft({ error: report.error, wrong: wrong(facts) }).toEqual({ error: undefined, wrong: [] });
}

describe.skipIf(REAL_PAYLOADS_ABSENT)(
  `postings of the genuine payloads${REAL_PAYLOADS_ABSENT ? ` (${REAL_PAYLOADS_ABSENT})` : ''}`,
  () => {
    describe('workday', () => {
      it('Broadcom: endDate 2026-05-15 has passed', async () => {
        await check('workday', 'matchaboar__srajob2__broadcom-detail-R024215.json', 1, {
          'workday:R024215': {
            title: 'Senior Software Engineer',
            employer: '8893 VMware LLC',
            url: 'https://broadcom.wd1.myworkdayjobs.com/External_Career/job/USA-WA-Bellevue---108th-Ave/Senior-Software-Engineer_R024215',
            expires: '2026-05-15',
            live: false,
          },
        });
        await check('workday', 'matchaboar__srajob2__broadcom-detail-R024240.json', 1, {
          'workday:R024240': {
            title: 'Senior Kubernetes Software Engineer',
            expires: '2026-05-15',
            live: false,
          },
        });
      });
      it('Dataminr: no endDate, live', () =>
        check('workday', 'matchaboar__srajob2__dataminr-detail-JR1652.json', 1, {
          'workday:JR1652': { title: 'Software Engineer, Backend', employer: 'Dataminr, Inc.', live: true },
        }));
      it('AIG: two postings with an endDate in the past', () =>
        check('workday', '../repacked/workday__Japesh285__SIte_scrapper__aig-list-with-details.json', 20, {
          'workday:JR2502100': {
            title: 'SDN Enterprise Engineer',
            employer: 'AIG GLOBAL OPERATIONS, INC.',
            expires: '2026-04-24',
            live: false,
          },
          'workday:JR2600860': { title: 'Senior Underwriting Property', expires: '2026-06-30', live: false },
          'workday:JR2601392': {
            title: 'Head of Compliance, Singapore',
            employer: 'AIG Asia Pacific Insurance Pte. Ltd.',
            live: true,
          },
          'workday:JR2600904': { live: true },
          // The Vienna postings are written in German.
          'workday:JR2506542': { title: 'Underwriter Casualty (w/m/d)', language: 'de' },
          'workday:JR2600903': { language: 'de' },
          'workday:JR2601157': { language: 'en' },
        }));
      it('3M: all live', () =>
        check('workday', '../repacked/workday__Japesh285__SIte_scrapper__3m-list-with-details.json', 5, {
          'workday:R01163338': { title: 'AWS Platform Architect', employer: 'USA 3M Company', live: true },
        }));
      it('Salesforce list rows, loaded with their board', () =>
        check(
          'workday',
          'omoji-personal__careerkit__salesforce-list-trimmed.json',
          2,
          {
            'workday:JR354232': {
              title: 'Solution Architect / Senior Solution Architect - PubSec - SLED/NGO',
              url: 'https://salesforce.wd12.myworkdayjobs.com/External_Career_Site/job/Virginia---Washington-DC-Metro---Remote/Solution-Architect---Senior-Solution-Architect---PubSec---SLED-NGO_JR354232',
              live: true,
            },
          },
          { token: 'salesforce.wd12/External_Career_Site' },
        ));
    });

    describe('jsonld', () => {
      const page = (file: string, id: string, w: Want) =>
        it(file, () => check('jsonld', file, 1, { [id]: w }, { source: 'careerboard' }));
      // Ashby pages: no url in the JSON-LD, no canonical link, but og:url.
      page(
        'matchaboar__srajob2__ashby-lambda-technical-sourcing-manager.html',
        'careerboard:0d79c70e-7a49-4a4a-a72f-7ef25d62de41',
        {
          title: 'Technical Sourcing Manager',
          employer: 'Lambda',
          url: 'https://jobs.ashbyhq.com/lambda/0d79c70e-7a49-4a4a-a72f-7ef25d62de41',
          live: true,
        },
      );
      page(
        'matchaboar__srajob2__ashby-ramp-fraud-risk-associate.html',
        'careerboard:caf900ec-0107-436b-88bf-2bc24174e6b9',
        {
          title: 'Fraud Risk Associate',
          employer: 'Ramp',
          url: 'https://jobs.ashbyhq.com/ramp/caf900ec-0107-436b-88bf-2bc24174e6b9',
          live: true,
        },
      );
      page(
        'yiakhuat__hermes-agent-setup__ashby-echotwin-tpm.html',
        'careerboard:93888d8f-d32c-4213-8768-93b2bc63fc03',
        {
          title: 'Senior Technical Program Manager',
          employer: 'EchoTwin AI',
          url: 'https://jobs.ashbyhq.com/echotwin/93888d8f-d32c-4213-8768-93b2bc63fc03',
          live: true,
        },
      );
      page(
        'yiakhuat__hermes-agent-setup__ashby-superhuman-tpm-growth.html',
        'careerboard:700c8d97-6ee3-4cb3-afff-b1e2fa157b1c',
        {
          title: 'Senior Technical Program Manager, Growth',
          employer: 'Superhuman',
          url: 'https://jobs.ashbyhq.com/Superhuman%20Platform%20Inc/700c8d97-6ee3-4cb3-afff-b1e2fa157b1c',
          live: true,
        },
      );
      page('yiakhuat__hermes-agent-setup__builtinsf-superhuman-tpm-growth.html', 'careerboard:9383286', {
        employer: 'Superhuman',
        url: 'https://www.builtinsf.com/job/senior-technical-program-manager-growth/9383286',
        expires: '2026-07-13',
        live: false,
      });
      page('yiakhuat__hermes-agent-setup__builtinsf-zoox-tpm.html', 'careerboard:9408262', {
        employer: 'Zoox',
        expires: '2026-07-13',
        live: false,
      });
      page('matchaboar__srajob2__coupang-jobs-7486748.html', 'careerboard:8799', {
        employer: 'Coupang',
        url: 'https://www.coupang.jobs/en/jobs/7486748/seniorstaff-android-engineer-streaming-player-coupang-play/',
        live: true,
      });
      page('matchaboar__srajob2__github-careers-jibe-4648.html', 'careerboard:0541d703151adfa4', {
        title: 'Senior Service Delivery Engineer',
        employer: 'GitHub, Inc.',
        expires: '2026-10-28',
        live: false,
      });
      page('matchaboar__srajob2__paloaltonetworks-talentbrew-jr-011926.html', 'careerboard:JR-011926', {
        employer: 'Palo Alto Networks',
        live: true,
      });
      it('matchaboar__srajob2__netflix-eightfold-790313323421.html: the URL without &amp;', async () => {
        const { jobs } = await loadJobs(
          'jsonld',
          'matchaboar__srajob2__netflix-eightfold-790313323421.html',
          {
            source: 'careerboard',
          },
        );
        const [id, got] = [...jobs][0] ?? ['netflix', undefined];
        const facts = [
          fact(
            'jsonld',
            id,
            'url',
            'https://explore.jobs.netflix.net/careers/job/790313323421-data-visualization-engineer-l4-ads-usa-remote?domain=netflix.com&microsite=netflix.com',
            got?.rec.url,
          ),
          fact('jsonld', id, 'expires', '2026-06-16', got?.rec.expires_at?.slice(0, 10)),
          fact('jsonld', id, 'live', false, got ? isLive(got.rec) : undefined),
        ];
        all.push(...facts);
        expect(wrong(facts)).toEqual([]);
      });
    });

    it('workable: the per-country rows of one job are one posting', () =>
      check('workable', 'omoji-personal__careerkit__zaelab-widget-trimmed.json', 1, {
        'workable:DD136DD7E7': {
          title: 'Business Analyst - Spanish Speaking',
          employer: 'Zaelab',
          url: 'https://apply.workable.com/j/DD136DD7E7',
          live: true,
        },
      }));

    it('personio: a position listed twice is one posting', async () => {
      await check('personio', 'omoji-personal__careerkit__sanitized-acme.xml', 1, {
        'personio:1834171': {
          title: 'Staff Software Engineer, Data Platform',
          employer: 'Acme SE & Co. KG',
          live: true,
        },
      });
      await check('personio', 'threadi__wp-personio-integration-light__tests-positions.xml', 11, {
        'personio:2140233': {
          title: 'Junior Sales Manager',
          employer: 'Parent Ltd.',
          live: true,
          language: 'en',
        },
        // Placeholder Latin: no language.
        'personio:2140235': { title: 'Go to Market Manager', language: null },
      });
      await check('personio', 'threadi__wp-personio-integration-light__example-jobs.xml', 3, {});
    });

    // The list formats state title, page, application page and employer in plain fields: read here from the
    // payload itself. None of these payloads states an expiry (close_at and application_deadline are null).
    describe('list formats, read field by field', () => {
      type Row = Record<string, unknown>;
      const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(REAL_PAYLOADS, rel), 'utf8'));
      const cases: [string, string, number, (body: Row) => Record<string, Want>][] = [];
      const gh = (rows: Row[], content: boolean) =>
        Object.fromEntries(
          rows.map((j) => [
            `greenhouse:${j.id}`,
            {
              title: String(j.title).replace(/\s+/g, ' ').trim(),
              url: String(j.absolute_url),
              ...(typeof j.company_name === 'string' ? { employer: j.company_name.trim() } : {}),
              live: true,
              ...(content ? { language: 'en' } : {}),
            },
          ]),
        );
      for (const [file, n, content] of [
        ['matchaboar__srajob2__robinhood-board-list-nocontent.json', 102, false],
        ['matchaboar__srajob2__nexhealth-board-list-nocontent.json', 26, false],
        ['matchaboar__srajob2__xai-board-list-nocontent-first30.json', 30, false],
        ['../repacked/greenhouse__matchaboar__srajob2__details-as-board-list.json', 10, true],
        ['omoji-personal__careerkit__amplitude-board-trimmed.json', 2, true],
        ['grnhse__greenhouse_io__generalassembly-2013-vcr-body.json', 2, true],
        ['matchaboar__srajob2__datadog-job-7449072.json', 1, true],
      ] as const)
        cases.push(['greenhouse', file, n, (b) => gh((b.jobs as Row[]) ?? [b], content)]);
      for (const [file, n] of [
        ['matchaboar__srajob2__ramp-board-first20.json', 20],
        ['omoji-personal__careerkit__highlightta-board-trimmed.json', 2],
        ['stapply-ai__ats-scrapers__Levelpath.json', 25],
        ['stapply-ai__ats-scrapers__givebutter.json', 8],
        ['stapply-ai__ats-scrapers__reedsy.json', 18],
        ['stapply-ai__ats-scrapers__sully-ai.json', 12],
      ] as const)
        cases.push([
          'ashby',
          file,
          n,
          (b) =>
            Object.fromEntries(
              (b.jobs as Row[]).map((j) => [
                `ashby:${j.id}`,
                {
                  title: String(j.title).replace(/\s+/g, ' ').trim(),
                  url: String(j.jobUrl),
                  apply: String(j.applyUrl),
                  live: true,
                  language: 'en',
                },
              ]),
            ),
        ]);
      for (const [file, n] of [
        ['HeisenbergI8__job-automation-app__zoox-trimmed.json', 1],
        ['omoji-personal__careerkit__idealistconsulting-trimmed.json', 2],
      ] as const)
        cases.push([
          'lever',
          file,
          n,
          (b) =>
            Object.fromEntries(
              (Array.isArray(b) ? b : [b]).map((j: Row) => [
                `lever:${j.id}`,
                {
                  title: String(j.text).replace(/\s+/g, ' ').trim(),
                  url: String(j.hostedUrl),
                  apply: String(j.applyUrl),
                  live: true,
                  language: 'en',
                },
              ]),
            ),
        ]);
      cases.push([
        'recruitee',
        'omoji-personal__careerkit__offers-sanitized-acme.json',
        2,
        (b) =>
          Object.fromEntries(
            (b.offers as Row[]).map((j) => [
              `recruitee:${j.id}`,
              {
                title: String(j.title).replace(/\s+/g, ' ').trim(),
                employer: String(j.company_name),
                url: String(j.careers_url),
                apply: String(j.careers_apply_url),
                live: true,
                language: 'en',
              },
            ]),
          ),
      ]);
      for (const [format, file, n, want] of cases)
        it(`${format}: ${file}`, () => check(format, file, n, want(read(`${format}/${file}`))));
      it('smartrecruiters: the one list row', () =>
        check('smartrecruiters', 'omoji-personal__careerkit__knight-list-1posting.json', 1, {
          'smartrecruiters:743999671674844': {
            title: 'CNA / LPN - Consistent Hours. Start Next Week.',
            live: true,
          },
        }));
    });
  },
);
