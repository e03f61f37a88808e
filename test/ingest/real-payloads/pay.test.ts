// Pay as a reader takes it from each genuine payload: the amounts, currency and period it states as base
// pay, or none. Written by reading the payloads (their structured fields and their text), not from the
// output. Rules decided where a payload is ambiguous (docs/decisions.md, "Pay, skills and copies in
// genuine payloads"): an on-target-earnings (OTE) range, or one said to include variable or commission
// pay, is not base salary; the base a statement names beside it is. Ranges stated per zone or market
// give the overall range, as structured tiers do. An amount posted without a period is yearly when it
// can only be yearly.
import { beforeAll, describe, expect, it } from 'vitest';
import { REAL_PAYLOADS_ABSENT } from '../../helpers/real-payloads.ts';
import { byPrefix, type Enriched, enrichedFile, FILES, jsonldFile } from './enriched-corpus.ts';

/** [min, max, currency, unit]; null bounds where the payload states only one side; null: no pay stated. */
type Pay = [number | null, number | null, string, string] | null;

interface Case {
  file: [string, string, object];
  /** Per posting (id prefix): the pay it states. */
  pay: Record<string, Pay>;
  /** Every other posting of the file states no pay (each was read). */
  othersNone: boolean;
}

const USD = (min: number, max: number): Pay => [min, max, 'USD', 'YEAR'];

const CASES: Record<string, Case[]> = {
  greenhouse: [
    {
      file: FILES.greenhouseDetails,
      othersNone: true,
      pay: {
        // "a starting base pay between USD $73,100 in the lowest geographic market and USD $117,000 in the
        // highest"; the commissions target (USD $197,750) is not base.
        'greenhouse:7546641003': USD(73100, 117000),
        // "the remuneration bracket for this role is set between $170,000 and $230,000"
        'greenhouse:4604609007': USD(170000, 230000),
        // pay-range block and metadata "Job Post Range (United States)": $56,576 — $82,368 USD (the
        // "Baseline Budgeted Salary" metadata is an internal budget, not the posted range).
        'greenhouse:7335945': USD(56576, 82368),
        // "Annual on-target earnings (OTE) range … $119,340 — $157,950 USD": OTE only, no base stated.
        'greenhouse:7245557': null,
        // "Salary: $212,202 - $274,700 / year" and the pay-range block.
        'greenhouse:5001698007': USD(212202, 274700),
        // "The US base salary range … is: $90k- 150k OTE + equity": the range is labelled OTE.
        'greenhouse:4967737007': null,
        // "Compensation $30/hour - $75/hour"
        'greenhouse:5012607007': [30, 75, 'USD', 'HOUR'],
      },
    },
    {
      file: FILES.greenhouseDatadog,
      othersNone: true,
      // metadata currency_range {"min_value":"81000.0","max_value":"118000.0"} and the pay-range block
      pay: { 'greenhouse:7449072': USD(81000, 118000) },
    },
    { file: FILES.greenhouseAmplitude, othersNone: true, pay: {} },
    { file: FILES.greenhouseGa, othersNone: true, pay: {} },
    { file: FILES.greenhouseRobinhood, othersNone: true, pay: {} },
    { file: FILES.greenhouseXai, othersNone: true, pay: {} },
    { file: FILES.greenhouseNexhealth, othersNone: true, pay: {} },
  ],
  ashby: [
    {
      // No compensation requested: the pay is in the text, per market ("NYC or SF" and "all other
      // locations"): the overall range, as Ashby's own JSON-LD gives for the same job.
      file: FILES.ashbyRamp,
      othersNone: true,
      pay: {
        'ashby:caf900ec': USD(92100, 165450),
        'ashby:d64609dd': USD(48000, 70000),
        'ashby:4745807e': USD(108300, 165450),
        'ashby:b55447c0': USD(88000, 132000),
        'ashby:b9568fb8': USD(122400, 225500),
        'ashby:20b3fd61': USD(136400, 208350),
        'ashby:fc971889': USD(48000, 70000),
        'ashby:d84bbf19': USD(154200, 240000),
        'ashby:f7c4de3c': USD(177400, 271000),
      },
    },
    {
      file: FILES.ashbyHighlight,
      othersNone: true,
      pay: { 'ashby:fc2f1f85': [102800, 137000, 'CAD', 'YEAR'] },
    },
    {
      file: FILES.ashbyLevelpath,
      othersNone: true,
      pay: {
        // "The estimated annual base cash salary for this role is $150,000-$210,000."
        'ashby:d6e80a53': USD(150000, 210000),
        'ashby:e36211f0': USD(150000, 210000),
        'ashby:266aba84': USD(160000, 240000),
        'ashby:582f21b8': [5000, 8000, 'EUR', 'MONTH'],
        'ashby:140eb34a': USD(165000, 240000),
        'ashby:e11b8fe7': [2500, 4000, 'EUR', 'MONTH'],
        // "$170,000 - 200,000"
        'ashby:4ed33734': USD(170000, 200000),
        // "[$130,000 - $180,000]"
        'ashby:1b92e725': USD(130000, 180000),
        'ashby:aa97c493': [4000, 6500, 'EUR', 'MONTH'],
        // "base cash salary … $100,000-$125,000 with total OTE $200,000-$250,000": the base.
        'ashby:2634fed6': USD(100000, 125000),
        'ashby:76e0f902': USD(100000, 150000),
        'ashby:4e3851f1': USD(150000, 200000),
        'ashby:f2a5ac52': USD(140000, 190000),
        'ashby:f68acb89': USD(140000, 190000),
        'ashby:8fb34eb9': USD(100000, 150000),
        'ashby:39d48e8f': USD(150000, 210000),
        'ashby:6fc7cc90': USD(85000, 125000),
        'ashby:99d2692b': USD(190000, 240000),
        'ashby:a600cf17': [5000, 8000, 'EUR', 'MONTH'],
        'ashby:5d5d69c5': USD(150000, 200000),
        'ashby:8f1d8bc9': USD(115000, 140000),
        // "The estimated annual cash salary for this role is $62,000- $120,000."
        'ashby:ffa894b1': USD(62000, 120000),
        'ashby:c574cafc': USD(62000, 120000),
        'ashby:74487372': [2200, 3000, 'EUR', 'MONTH'],
      },
    },
    {
      file: FILES.ashbyGivebutter,
      othersNone: true,
      pay: {
        // Salary component "Range listed is OTE $220K – $250K": OTE, no base stated.
        'ashby:85d293a2': null,
        // "Base Salary $120K • … • Breakdown of OTE is: $72,000 base salary, $48,000 variable
        // compensation": $120K is the OTE; the base is $72,000.
        'ashby:7843e234': USD(72000, 72000),
        'ashby:cb2b841a': USD(150000, 170000),
        'ashby:dab731e3': USD(150000, 170000),
        // "₱550.00 per hour"
        'ashby:22c1e6b8': [550, 550, 'PHP', 'HOUR'],
        'ashby:cebb0cfa': [550, 550, 'PHP', 'HOUR'],
        'ashby:cd3080cd': [550, 550, 'PHP', 'HOUR'],
        // "Base Salary $65K • Offers Equity • $50,000 commission": the base.
        'ashby:58ceac90': USD(65000, 65000),
      },
    },
    {
      file: FILES.ashbyReedsy,
      othersNone: true,
      pay: {
        'ashby:9b29b6b9': USD(25000, 45000),
        'ashby:04567d02': [40000, 60000, 'EUR', 'YEAR'],
        'ashby:92886128': USD(30000, 60000),
        'ashby:afee30a4': USD(25000, 45000),
        'ashby:1e584fe8': [60000, 100000, 'EUR', 'YEAR'],
        'ashby:944b4b7b': [35000, 50000, 'EUR', 'YEAR'],
        'ashby:a42f6335': [40000, 50000, 'EUR', 'YEAR'],
        'ashby:06a14334': [14000, 26000, 'GBP', 'YEAR'],
        'ashby:d5782c4c': [14000, 26000, 'GBP', 'YEAR'],
        'ashby:835c9c7b': [60000, 100000, 'EUR', 'YEAR'],
        'ashby:dddc07fe': [60000, 100000, 'EUR', 'YEAR'],
        'ashby:742cc4da': [60000, 90000, 'EUR', 'YEAR'],
        'ashby:de732b71': [14000, 26000, 'GBP', 'YEAR'],
        'ashby:b043b550': [70000, 120000, 'EUR', 'YEAR'],
        'ashby:31e89e52': USD(25000, 45000),
        'ashby:addb548d': [14000, 26000, 'GBP', 'YEAR'],
        'ashby:5c83076a': [14000, 26000, 'GBP', 'YEAR'],
        'ashby:a9e3b785': USD(60000, 90000),
      },
    },
    {
      file: FILES.ashbySully,
      othersNone: true,
      pay: {
        'ashby:95e83ac9': USD(450000, 550000),
        'ashby:13b8412c': USD(230000, 280000),
        'ashby:73fab64f': USD(170000, 200000),
        'ashby:0f4d9af7': USD(170000, 200000),
        'ashby:4f2375ef': [70000, 100000, 'SAR', 'MONTH'],
        'ashby:bbd31e98': USD(150000, 200000),
        'ashby:cf51c97e': USD(250000, 290000),
        'ashby:c85f942c': USD(200000, 230000),
        'ashby:f1efcd1f': USD(180000, 220000),
        'ashby:5cc61752': USD(200000, 250000),
      },
    },
  ],
  jsonld: [
    {
      file: jsonldFile('matchaboar__srajob2__ashby-lambda-technical-sourcing-manager.html'),
      othersNone: true,
      pay: { 'careerboard:0d79c70e': USD(188000, 282000) },
    },
    {
      file: jsonldFile('matchaboar__srajob2__ashby-ramp-fraud-risk-associate.html'),
      othersNone: true,
      pay: { 'careerboard:caf900ec': USD(92100, 165450) },
    },
    { file: jsonldFile('matchaboar__srajob2__coupang-jobs-7486748.html'), othersNone: true, pay: {} },
    // baseSalary with zeros: no pay; the text states none.
    { file: jsonldFile('matchaboar__srajob2__github-careers-jibe-4648.html'), othersNone: true, pay: {} },
    {
      // "The range for this role is $170,000-720,000."
      file: jsonldFile('matchaboar__srajob2__netflix-eightfold-790313323421.html'),
      othersNone: true,
      pay: { 'careerboard:9daa3290782a069a': USD(170000, 720000) },
    },
    {
      // "base salary (for non-sales roles) … is expected to be between $147000/YR - $237500/YR"; an
      // engineering role.
      file: jsonldFile('matchaboar__srajob2__paloaltonetworks-talentbrew-jr-011926.html'),
      othersNone: true,
      pay: { 'careerboard:JR-011926': USD(147000, 237500) },
    },
    { file: jsonldFile('yiakhuat__hermes-agent-setup__ashby-echotwin-tpm.html'), othersNone: true, pay: {} },
    {
      // "Zone 1: $192,000 – $264,000/year (USD)"
      file: jsonldFile('yiakhuat__hermes-agent-setup__ashby-superhuman-tpm-growth.html'),
      othersNone: true,
      pay: { 'careerboard:700c8d97': USD(192000, 264000) },
    },
    {
      file: jsonldFile('yiakhuat__hermes-agent-setup__builtinsf-superhuman-tpm-growth.html'),
      othersNone: true,
      pay: { 'careerboard:9383286': USD(192000, 264000) },
    },
    {
      file: jsonldFile('yiakhuat__hermes-agent-setup__builtinsf-zoox-tpm.html'),
      othersNone: true,
      pay: { 'careerboard:9408262': USD(186000, 284000) },
    },
  ],
  lever: [
    { file: FILES.leverZoox, othersNone: true, pay: { 'lever:f4746da4': USD(144000, 193000) } },
    { file: FILES.leverIdealist, othersNone: true, pay: {} },
  ],
  personio: [
    {
      // <salaryInformation><min>100000.00</min><max></max> … <type>yearly</type>: from 100,000 a year.
      file: FILES.personioTests,
      othersNone: true,
      pay: {
        'personio:2140231': [100000, null, 'GBP', 'YEAR'],
        'personio:2140230': [100000, null, 'GBP', 'YEAR'],
        'personio:2140233': [100000, null, 'EUR', 'YEAR'],
        'personio:2140229': [100000, null, 'GBP', 'YEAR'],
        'personio:2140232': [100000, null, 'GBP', 'YEAR'],
      },
    },
    { file: FILES.personioExample, othersNone: true, pay: {} },
  ],
  recruitee: [
    {
      file: FILES.recruitee,
      othersNone: true,
      pay: {
        'recruitee:2700825': [60000, 75000, 'EUR', 'YEAR'],
        // salary 75000–90000 is "€75–90k OTE" in the text; the application question says "The range
        // mentioned in the job ad is the OTE. The base is between 50K Euros - 60K Euros per annum".
        'recruitee:2697184': [50000, 60000, 'EUR', 'YEAR'],
      },
    },
  ],
  smartrecruiters: [{ file: FILES.smartrecruiters, othersNone: true, pay: {} }],
  workable: [{ file: FILES.workable, othersNone: true, pay: {} }],
  workday: [
    {
      // "The annual base salary range for this position is $91,000 - $162,000"
      file: FILES.workdayBroadcom1,
      othersNone: true,
      pay: { 'workday:R024215': USD(91000, 162000) },
    },
    { file: FILES.workdayBroadcom2, othersNone: true, pay: { 'workday:R024240': USD(141300, 226000) } },
    { file: FILES.workdayDataminr, othersNone: true, pay: { 'workday:JR1652': USD(120000, 195000) } },
    {
      // "The expected compensation range for this position is $113,752 - $139,031, which includes base
      // pay plus variable incentive pay": target pay with variable pay, not base salary.
      file: FILES.workday3m,
      othersNone: true,
      pay: {
        'workday:R01163771': null,
        'workday:R01163369': null,
        'workday:R01163338': null,
        'workday:R01163619': null,
      },
    },
    {
      file: FILES.workdayAig,
      othersNone: true,
      pay: {
        // "For positions based in New York, NY, the base salary range is $180,000-$240,000."
        'workday:JR2506067': USD(180000, 240000),
        // "… in CT $98,000-122,000 and the base salary range for NJ is $96,000-120,000."
        'workday:JR2600124': USD(96000, 122000),
        'workday:JR2601156': USD(140000, 155000),
        // NYC $105,000 - $135,000; NJ $100,000 to $130,000
        'workday:JR2600715': USD(100000, 135000),
        // A Canadian role: "$88,000-$132,000" are Canadian dollars.
        'workday:JR2601407': [88000, 132000, 'CAD', 'YEAR'],
        // NY and CT $87,000-109,000; NJ $85,000-107,000
        'workday:JR2600146': USD(85000, 109000),
        // "kollektivvertragliches jährliches Bruttomindestentgelt von EUR 56 454,58": a yearly minimum.
        'workday:JR2506542': [56454.58, null, 'EUR', 'YEAR'],
        'workday:JR2600903': [56454.58, null, 'EUR', 'YEAR'],
        // NJ $99,000 - $143,000, NY $105,000 - $148,000, IL $120,000 - $150,000, MA $122,000 - $150,000
        'workday:JR2503868': USD(99000, 150000),
      },
    },
  ],
};

function payOf(e: Enriched): Pay {
  const s = e.job.salary;
  return s ? [s.min, s.max, s.currency, s.unit] : null;
}

describe.skipIf(REAL_PAYLOADS_ABSENT)('pay stated by genuine payloads', () => {
  for (const [format, cases] of Object.entries(CASES)) {
    describe(format, () => {
      for (const c of cases) {
        const [fmt, file, ctx] = c.file;
        let postings: Map<string, Enriched>;
        beforeAll(async () => {
          postings = await enrichedFile(fmt, file, ctx);
        });
        for (const [prefix, pay] of Object.entries(c.pay)) {
          it(`${file.replace(/^.*\//, '')} ${prefix}`, () => {
            expect(payOf(byPrefix(postings, prefix))).toEqual(pay);
          });
        }
        if (c.othersNone) {
          it(`${file.replace(/^.*\//, '')}: the other postings state no pay`, () => {
            const listed = Object.keys(c.pay);
            const others = [...postings.values()].filter((e) => !listed.some((p) => e.rec.id.startsWith(p)));
            expect(others.filter((e) => e.job.salary).map((e) => [e.rec.id, payOf(e)])).toEqual([]);
          });
        }
      }
    });
  }
});

const absent = REAL_PAYLOADS_ABSENT;
if (absent) describe('pay stated by genuine payloads', () => it.skip(absent, () => {}));
