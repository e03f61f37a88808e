import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { NOW, parseFixture } from './helpers.ts';

const ctx = { source: 'personio', board: 'personio/fernweh', now: NOW };

describe('personio adapter', () => {
  const res = parseFixture('personio', 'personio/positions.xml', 'personio', 'personio/fernweh');

  it('maps a position: CDATA sections, additional offices, schedule, experience, keywords', () => {
    expect(res.postings[0]).toEqual({
      id: 'personio:1402201',
      source: 'personio',
      title: 'Embedded Software Engineer (m/f/d)',
      company: { name: 'Fernweh Mobility GmbH' },
      url: 'https://fernweh.jobs.personio.de/job/1402201',
      canonical_url: 'https://fernweh.jobs.personio.de/job/1402201',
      description_html:
        '<h3>Your mission</h3><p>Write firmware for e-bike &amp; scooter chargers.</p>\n' +
        '<h3>Your profile</h3><ul><li>C and Rust</li><li>CAN bus</li></ul>',
      location: { raw: ['Munich', 'Hamburg'] },
      employment_type: ['FULL_TIME', 'PART_TIME'],
      department: 'Engineering',
      seniority: 'Mid-Senior level',
      experience_level: '2-5',
      keywords: ['firmware', 'embedded', 'rust'],
      posted_at: '2026-05-12T10:14:07.000Z',
      board: 'personio/fernweh',
    });
  });

  it('interns map to INTERN; an empty subcompany falls back to the board', () => {
    expect(res.postings[1]).toEqual({
      id: 'personio:1402202',
      source: 'personio',
      title: 'Working Student HR',
      company: { name: 'fernweh' },
      url: 'https://fernweh.jobs.personio.de/job/1402202',
      canonical_url: 'https://fernweh.jobs.personio.de/job/1402202',
      description_html: '<h3>About the role</h3><p>Support recruiting, 20 hours a week.</p>',
      location: { raw: ['Munich'] },
      employment_type: ['INTERN'],
      department: 'People',
      seniority: 'Internship',
      experience_level: '0-2',
      posted_at: '2026-05-20T06:00:00.000Z',
      board: 'personio/fernweh',
    });
    expect(res.rejected).toEqual([{ native_id: '1402203', reason: 'missing title' }]);
  });

  it('an empty feed is an empty board; another document is a format error', () => {
    expect(adapters.personio.parse('<?xml version="1.0"?><workzag-jobs></workzag-jobs>', ctx)).toEqual({
      postings: [],
      rejected: [],
      dropped: 0,
    });
    expect(() => adapters.personio.parse('<html><body><h1>Careers</h1></body></html>', ctx)).toThrow(
      AdapterFormatError,
    );
    expect(() => adapters.personio.parse('{"jobs":[]}', ctx)).toThrow(AdapterFormatError);
  });
});
