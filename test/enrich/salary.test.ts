import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SalaryInput } from '../../src/model/record.ts';
import { parseSalaryText, resolveSalary, salaryOf, statedPay } from '../../src/enrich/salary.ts';

type Row = [
  SalaryInput,
  string[] | undefined,
  [number | null, number | null, string, string, number | null, number | null] | null,
];

// [input, posting countries, [min, max, currency, unit, annual_min, annual_max] or null]
const CASES: Row[] = [
  [{ text: '$90k–$120k a year' }, undefined, [90000, 120000, 'USD', 'YEAR', 90000, 120000]],
  [{ text: '€45.000 - €55.000 brutto/Jahr' }, undefined, [45000, 55000, 'EUR', 'YEAR', 45000, 55000]],
  [{ text: '£15/hour' }, undefined, [15, 15, 'GBP', 'HOUR', 31200, 31200]],
  [{ text: 'USD 8,000 per month' }, undefined, [8000, 8000, 'USD', 'MONTH', 96000, 96000]],
  [{ text: 'INR 12 LPA' }, undefined, [1200000, 1200000, 'INR', 'YEAR', 1200000, 1200000]],
  [{ text: '₹8-12 LPA' }, undefined, [800000, 1200000, 'INR', 'YEAR', 800000, 1200000]],
  [{ text: "CHF 120'000 - 140'000 per year" }, undefined, [120000, 140000, 'CHF', 'YEAR', 120000, 140000]],
  [{ text: '45 000 € par an' }, undefined, [45000, 45000, 'EUR', 'YEAR', 45000, 45000]],
  [{ text: '$50/hr' }, undefined, [50, 50, 'USD', 'HOUR', 104000, 104000]],
  [{ text: 'Up to $150,000' }, undefined, [null, 150000, 'USD', 'YEAR', null, 150000]],
  [{ text: 'From £40,000' }, undefined, [40000, null, 'GBP', 'YEAR', 40000, null]],
  [{ text: '$120,000 - $150,000 + equity' }, undefined, [120000, 150000, 'USD', 'YEAR', 120000, 150000]],
  [{ text: '80-100k EUR' }, undefined, [80000, 100000, 'EUR', 'YEAR', 80000, 100000]],
  [{ text: '¥6,000,000' }, undefined, [6000000, 6000000, 'JPY', 'YEAR', 6000000, 6000000]],
  [{ text: 'R$ 8.000/mês' }, undefined, [8000, 8000, 'BRL', 'MONTH', 96000, 96000]],
  [{ text: 'A$120k - A$140k' }, undefined, [120000, 140000, 'AUD', 'YEAR', 120000, 140000]],
  [{ text: 'CA$85,000–95,000 annually' }, undefined, [85000, 95000, 'CAD', 'YEAR', 85000, 95000]],
  [{ text: 'S$6,000 per month' }, undefined, [6000, 6000, 'SGD', 'MONTH', 72000, 72000]],
  [{ text: '£400 per day' }, undefined, [400, 400, 'GBP', 'DAY', 104000, 104000]],
  [{ text: '$2,000/week' }, undefined, [2000, 2000, 'USD', 'WEEK', 104000, 104000]],
  [{ text: 'zł 12 000 brutto / miesiąc' }, undefined, [12000, 12000, 'PLN', 'MONTH', 144000, 144000]],
  [{ text: '45 000 kr/mån' }, ['SE'], [45000, 45000, 'SEK', 'MONTH', 540000, 540000]],
  [{ text: '40 000 kr per month' }, ['NO'], [40000, 40000, 'NOK', 'MONTH', 480000, 480000]],
  [{ text: '$25 - $30 per hour' }, undefined, [25, 30, 'USD', 'HOUR', 52000, 62400]],
  [{ text: '€3,500 - €4,200 monthly' }, undefined, [3500, 4200, 'EUR', 'MONTH', 42000, 50400]],
  [{ text: '15.50 EUR pro Stunde' }, undefined, [15.5, 15.5, 'EUR', 'HOUR', 32240, 32240]],
  [{ text: '$90,000' }, ['CA'], [90000, 90000, 'CAD', 'YEAR', 90000, 90000]],
  [{ text: '$95,000 – $110,000' }, ['US'], [95000, 110000, 'USD', 'YEAR', 95000, 110000]],
  [{ text: 'GBP 500 - 600 per day' }, undefined, [500, 600, 'GBP', 'DAY', 130000, 156000]],
  [{ text: 'Competitive' }, undefined, null],
  [{ text: 'DOE' }, undefined, null],
  [{ text: '$5M' }, undefined, null],
  [{ text: 'Salary: negotiable' }, undefined, null],
  [{ text: '90,000 - 120,000' }, undefined, null],
  // Structured, as adapters pass it.
  [
    { min: 100, max: 130, currency: 'USD', unit: 'per-year-salary' },
    undefined,
    [100000, 130000, 'USD', 'YEAR', 100000, 130000],
  ],
  [
    { min: 9000000, max: 12000000, currency: 'USD', unit: 'YEAR' },
    undefined,
    [90000, 120000, 'USD', 'YEAR', 90000, 120000],
  ],
  [{ min: 50, max: 60, currency: 'usd', unit: '1 HOUR' }, undefined, [50, 60, 'USD', 'HOUR', 104000, 124800]],
  [
    { min: 5000, max: 6000, currency: 'EUR', unit: 'monthly' },
    undefined,
    [5000, 6000, 'EUR', 'MONTH', 60000, 72000],
  ],
  [
    { min: 4000, max: 5000, currency: 'EUR', unit: 'per-month-salary' },
    undefined,
    [4000, 5000, 'EUR', 'MONTH', 48000, 60000],
  ],
  [
    { min: 30, max: 40, currency: 'USD', unit: 'per-hour-wage' },
    undefined,
    [30, 40, 'USD', 'HOUR', 62400, 83200],
  ],
  [
    { min: 55000, max: 65000, currency: 'EUR', unit: 'year' },
    undefined,
    [55000, 65000, 'EUR', 'YEAR', 55000, 65000],
  ],
  [{ min: 80000, currency: 'GBP' }, undefined, [80000, null, 'GBP', 'YEAR', 80000, null]],
  [{ min: 3000, currency: 'EUR' }, undefined, [3000, null, 'EUR', 'MONTH', 36000, null]],
  [{ min: 20, max: 25, currency: 'USD' }, undefined, [20, 25, 'USD', 'HOUR', 41600, 52000]],
  [
    { min: 130000, max: 110000, currency: 'USD', unit: 'YEAR' },
    undefined,
    [110000, 130000, 'USD', 'YEAR', 110000, 130000],
  ],
  [{ min: 1, max: 2, currency: 'USD', unit: 'YEAR' }, undefined, null],
  [{ min: 15, max: 150000, currency: 'USD', unit: 'YEAR' }, undefined, null],
  [{ min: 0, max: 0, currency: 'USD', unit: 'YEAR' }, undefined, null],
  [{ min: 50000, max: 60000 }, undefined, null],
  [
    { min: 50000, max: 60000, currency: 'USD', unit: 'NONE' },
    undefined,
    [50000, 60000, 'USD', 'YEAR', 50000, 60000],
  ],
];

describe('salaryOf', () => {
  it.each(CASES)('%j (countries %j)', (input, countries, want) => {
    const s = salaryOf(input, { countries });
    if (want === null) {
      expect(s).toBeNull();
      return;
    }
    expect(s).not.toBeNull();
    expect([s!.min, s!.max, s!.currency, s!.unit, s!.annual_min, s!.annual_max]).toEqual(want);
  });

  it('summaries are human-readable ranges', () => {
    expect(salaryOf({ text: '$90k–$120k a year' })!.summary).toBe('USD 90,000–120,000 per year');
    expect(salaryOf({ text: '£15/hour' })!.summary).toBe('GBP 15 per hour');
    expect(salaryOf({ text: 'Up to $150,000' })!.summary).toBe('up to USD 150,000 per year');
    expect(salaryOf({ text: 'From £40,000' })!.summary).toBe('from GBP 40,000 per year');
    expect(salaryOf({ min: 15.5, max: 17.25, currency: 'EUR', unit: 'HOUR' })!.summary).toBe(
      'EUR 15.5–17.25 per hour',
    );
  });

  it('free text never throws and never yields a non-positive or unannualised salary', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const s = salaryOf({ text });
        if (s) {
          expect(s.min === null || s.min > 0).toBe(true);
          expect(s.annual_max === null || s.annual_max >= (s.annual_min ?? 0)).toBe(true);
        }
        parseSalaryText(text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('pay stated in text: base, OTE and other pay', () => {
  const pay = (s: ReturnType<typeof resolveSalary>) => (s ? [s.min, s.max, s.currency, s.unit] : null);

  it('labels each amount: base, OTE, commission', () => {
    const stated = statedPay(
      'The estimated annual base cash salary for this role is $100,000-$125,000 with total OTE $200,000-$250,000.',
    );
    expect(stated.map((s) => [s.min, s.max, s.label])).toEqual([
      [100000, 125000, 'base'],
      [200000, 250000, 'ote'],
    ]);
    expect(
      statedPay('$72,000 base salary, $48,000 variable compensation', {}, true).map((s) => s.label),
    ).toEqual(['base-after', 'other']);
  });

  it('an OTE range is never base salary; the base named beside it is', () => {
    expect(
      pay(
        resolveSalary(undefined, 'The US base salary range for this position is: $90k- 150k OTE + equity.'),
      ),
    ).toBe(null);
    expect(
      pay(
        resolveSalary(
          undefined,
          'Annual on-target earnings (OTE) range for this position is below.\n$119,340—$157,950 USD',
        ),
      ),
    ).toBe(null);
    // A source's range its own summary calls OTE.
    expect(
      pay(
        resolveSalary(
          {
            min: 220000,
            max: 250000,
            currency: 'USD',
            unit: 'YEAR',
            text: 'Range listed is OTE $220K – $250K',
          },
          '',
        ),
      ),
    ).toBe(null);
    expect(
      pay(
        resolveSalary(
          {
            min: 120000,
            max: 120000,
            currency: 'USD',
            unit: 'YEAR',
            text: 'Breakdown of OTE is: $72,000 base salary, $48,000 variable compensation',
          },
          '',
        ),
      ),
    ).toEqual([72000, 72000, 'USD', 'YEAR']);
    // A source's range the description calls OTE, and the base its question names.
    expect(
      pay(
        resolveSalary(
          {
            min: 75000,
            max: 90000,
            currency: 'EUR',
            unit: 'YEAR',
            text: 'The range mentioned in the job ad is the OTE. The base is between 50K Euros - 60K Euros per annum',
          },
          'Additional details about the Package\n€75–90k OTE, uncapped',
        ),
      ),
    ).toEqual([50000, 60000, 'EUR', 'YEAR']);
    // Pay said to include variable pay is target pay.
    expect(
      pay(
        resolveSalary(
          undefined,
          'The expected compensation range for this position is $113,752 - $139,031, which includes base pay plus variable incentive pay, if eligible.',
        ),
      ),
    ).toBe(null);
  });

  it('reads ranges per market as one overall range, and only in pay sentences', () => {
    expect(
      pay(
        resolveSalary(
          undefined,
          'Founded in 2019, we have saved $10B for customers.\nFor candidates located in NYC or SF, the pay range for this role is $102,300 - $165,450 For candidates located in all other locations, the pay range for this role is $92,100 - $148,950.\n- Fertility HRA (up to $5,000 per year)',
          { countries: ['US', 'CA'] },
        ),
      ),
    ).toEqual([92100, 165450, 'USD', 'YEAR']);
    expect(
      pay(
        resolveSalary(
          undefined,
          'a starting base pay between USD $73,100 in the lowest geographic market and USD $117,000 in the highest.',
        ),
      ),
    ).toEqual([73100, 117000, 'USD', 'YEAR']);
    expect(pay(resolveSalary(undefined, 'Compensation $30/hour - $75/hour'))).toEqual([
      30,
      75,
      'USD',
      'HOUR',
    ]);
    expect(
      pay(
        resolveSalary(
          undefined,
          'The expected salary ranges are outlined below.\n\nUnited States:\nZone 1: $192,000 – $264,000/year (USD)',
        ),
      ),
    ).toEqual([192000, 264000, 'USD', 'YEAR']);
    expect(
      pay(
        resolveSalary(
          undefined,
          'ein kollektivvertragliches jährliches Bruttomindestentgelt von EUR 56 454,58 bei 38,5 Stunden',
        ),
      ),
    ).toEqual([56454.58, null, 'EUR', 'YEAR']);
    expect(pay(resolveSalary(undefined, 'Typical sales will be $20k to $100k. With $80M in funding.'))).toBe(
      null,
    );
  });
});
