// Payload strings that name Object.prototype members map to nothing, never to inherited properties.
import { describe, expect, it } from 'vitest';
import { adapters } from '../../../src/ingest/adapters/index.ts';

const now = new Date('2026-06-01T12:00:00Z');

describe('prototype keys in payloads', () => {
  for (const key of ['__proto__', 'constructor', 'toString']) {
    it(`lever salary interval ${JSON.stringify(key)} gives no unit`, () => {
      const payload = JSON.stringify([
        {
          id: 'a',
          text: 'Engineer',
          hostedUrl: 'https://jobs.lever.co/x/a',
          categories: {},
          salaryRange: { currency: 'USD', interval: key, min: 100, max: 200 },
        },
      ]);
      const { postings } = adapters.lever.parse(payload, { source: 'lever', board: 'lever/x', now });
      expect(postings).toHaveLength(1);
      expect(postings[0].salary?.unit).toBeUndefined();
    });

    it(`ashby compensation interval ${JSON.stringify(key)} gives no unit`, () => {
      const payload = JSON.stringify({
        apiVersion: '1',
        jobs: [
          {
            id: 'j1',
            title: 'Engineer',
            jobUrl: 'https://jobs.ashbyhq.com/x/j1',
            isListed: true,
            compensation: {
              summaryComponents: [
                { compensationType: 'Salary', interval: key, currencyCode: 'USD', minValue: 1, maxValue: 2 },
              ],
            },
          },
        ],
      });
      const { postings } = adapters.ashby.parse(payload, { source: 'ashby', board: 'ashby/x', now });
      expect(postings).toHaveLength(1);
      expect(postings[0].salary?.unit).toBeUndefined();
    });
  }
});
