import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enrichPosting } from '../../src/enrich/posting.ts';
import type { PostingRecord } from '../../src/model/record.ts';

const base: PostingRecord = {
  id: 'lever:1',
  source: 'lever',
  title: 'x',
  company: { name: 'Acme' },
  url: 'https://a.example/1',
};

const HTML = `<h2>About the role</h2><p>We are looking for an engineer to build scalable services in Go, Python and TypeScript on AWS with Kubernetes and PostgreSQL.</p>
<h3>What you'll do</h3><ul><li>Design and ship APIs used by millions</li><li>Own services end to end</li></ul>
<h3>Requirements</h3><ul><li>5+ years of experience in backend development</li><li>Bachelor's degree in Computer Science or equivalent</li></ul>
<h3>Benefits</h3><ul><li>Health insurance</li><li>401(k) matching</li></ul><p>We are unable to sponsor visas for this role. 40 hours per week. This is a full-time position.</p><script>alert(1)</script>`;

describe('enrichPosting', () => {
  it('derives every field from a typical posting', () => {
    const e = enrichPosting({
      ...base,
      title: 'SENIOR SOFTWARE ENGINEER, BACKEND',
      location: { raw: ['Remote - US'] },
      salary: { text: '$90k–$120k a year' },
      description_html: HTML,
    });
    expect(e.title).toBe('Senior Software Engineer, Backend');
    expect(e.location).toEqual({
      remote: true,
      countries: ['United States'],
      cities: null,
      regions: null,
      coords: null,
      timezones: [
        'America/New_York',
        'America/Chicago',
        'America/Los_Angeles',
        'America/Denver',
        'America/Phoenix',
        'America/Detroit',
      ],
      continent: 'North America',
      raw: ['Remote - US'],
    });
    expect(e.country_codes).toEqual(['US']);
    expect(e.continents).toEqual(['North America']);
    expect(e.remote_location).toEqual(['United States']);
    expect(e.work_arrangement).toBe('Remote');
    expect(e.employment_type).toEqual(['FULL_TIME']);
    expect(e.seniority).toBe('Mid-Senior level');
    expect(e.experience_level).toBe('5-10');
    expect(e.education_requirements).toEqual(['bachelor degree']);
    expect(e.department).toBe('Engineering');
    expect(e.salary).toEqual({
      min: 90000,
      max: 120000,
      currency: 'USD',
      unit: 'YEAR',
      annual_min: 90000,
      annual_max: 120000,
      summary: 'USD 90,000–120,000 per year',
    });
    expect(e.working_hours).toBe(40);
    expect(e.skills).toEqual(['go', 'python', 'typescript', 'aws', 'kubernetes', 'postgresql']);
    expect(e.taxonomies).toEqual(['Engineering', 'Software']);
    expect(e.job_language).toBe('en');
    expect(e.visa_sponsorship).toBe(false);
    expect(e.requirements_summary).toBe(
      "5+ years of experience in backend development; Bachelor's degree in Computer Science or equivalent.",
    );
    expect(e.core_responsibilities).toBe('Design and ship APIs used by millions; Own services end to end.');
    expect(e.benefits).toEqual(['Health insurance', '401(k) matching']);
    expect(e.description_html).not.toContain('script');
    expect(e.description_text.startsWith('About the role\nWe are looking')).toBe(true);
  });

  it('values present in the record win over derived ones', () => {
    const e = enrichPosting({
      ...base,
      title: 'Senior Engineer',
      description_html: HTML,
      location: {
        raw: ['Berlin'],
        countries: ['DE'],
        cities: ['Potsdam'],
        regions: ['Brandenburg'],
        timezones: ['Europe/Berlin'],
        remote: false,
      },
      work_arrangement: 'hybrid',
      employment_type: ['Contract'],
      seniority: 'Director',
      experience_level: '10+',
      education_requirements: ['High School or equivalent'],
      department: 'Platform',
      skills: ['C++', 'Node.js'],
      keywords: ['Backend'],
      taxonomies: ['Software', 'Not A Taxonomy'],
      job_language: 'de',
      visa_sponsorship: true,
      requirements_summary: 'Given summary',
      core_responsibilities: 'Given duties',
      benefits: ['Given perk'],
      working_hours: 32,
      remote_location: ['FR'],
      salary: { min: 60000, max: 70000, currency: 'EUR', unit: 'YEAR' },
    });
    expect(e.location.countries).toEqual(['Germany']);
    // Given places come first; a place only the strings name ("Berlin") is added after them.
    expect(e.location.cities).toEqual(['Potsdam', 'Berlin']);
    expect(e.location.regions).toEqual(['Brandenburg', 'Berlin']);
    expect(e.location.timezones).toEqual(['Europe/Berlin']);
    expect(e.location.remote).toBe(false);
    expect(e.work_arrangement).toBe('Hybrid');
    expect(e.employment_type).toEqual(['CONTRACTOR']);
    expect(e.seniority).toBe('Director');
    expect(e.experience_level).toBe('10+');
    expect(e.education_requirements).toEqual(['high school']);
    expect(e.department).toBe('Platform');
    expect(e.skills).toEqual(['cpp', 'node']);
    expect(e.keywords).toEqual(['backend']);
    expect(e.taxonomies).toEqual(['Software']);
    expect(e.job_language).toBe('de');
    expect(e.visa_sponsorship).toBe(true);
    expect(e.requirements_summary).toBe('Given summary');
    expect(e.core_responsibilities).toBe('Given duties');
    expect(e.benefits).toEqual(['Given perk']);
    expect(e.working_hours).toBe(32);
    expect(e.remote_location).toEqual(['France']);
    expect(e.salary?.summary).toBe('EUR 60,000–70,000 per year');
  });

  it('a German posting: geocoded, classified, language detected', () => {
    const e = enrichPosting({
      ...base,
      title: 'Werkstudent (m/w/d) Softwareentwicklung',
      location: { raw: ['München, Bayern, Deutschland'] },
      employment_type: ['Teilzeit'],
      description_text:
        'Deine Aufgaben\n- Entwicklung von Microservices mit Java und Spring Boot\nDein Profil\n- Studium der Informatik\nWir bieten\n- Jobticket\n- 20 Stunden pro Woche',
    });
    expect(e.location.countries).toEqual(['Germany']);
    expect(e.location.cities).toEqual(['Munich']);
    expect(e.location.regions).toEqual(['Bayern']);
    expect(e.location.timezones).toEqual(['Europe/Berlin']);
    expect(e.location.continent).toBe('Europe');
    expect(e.work_arrangement).toBe('On-site');
    expect(e.employment_type).toEqual(['PART_TIME']);
    expect(e.seniority).toBe('Internship');
    expect(e.job_language).toBe('de');
    expect(e.skills).toEqual(['microservices', 'java', 'springboot']);
    expect(e.working_hours).toBe(20);
    expect(e.benefits).toEqual(['Jobticket', '20 Stunden pro Woche']);
  });

  it('hybrid and multi-location strings', () => {
    const e = enrichPosting({
      ...base,
      title: 'Designer',
      location: { raw: ['Hybrid (Berlin)', 'Paris, France'] },
    });
    expect(e.work_arrangement).toBe('Hybrid');
    expect(e.location.remote).toBe(false);
    expect(e.location.countries).toEqual(['Germany', 'France']);
    expect(e.location.cities).toEqual(['Berlin', 'Paris']);
    expect(e.remote_location).toEqual([]);
  });

  it('no salary is invented and a short text gets no language', () => {
    const e = enrichPosting({ ...base, title: 'Barista', description_text: 'Great coffee.' });
    expect(e.salary).toBeNull();
    expect(e.job_language).toBeNull();
    expect(e.visa_sponsorship).toBeNull();
    expect(e.location).toEqual({
      remote: false,
      countries: [],
      cities: null,
      regions: null,
      coords: null,
      timezones: [],
      continent: null,
      raw: [],
    });
  });

  it('a salary stated in the description is read from its pay sentence', () => {
    const e = enrichPosting({
      ...base,
      title: 'Engineer',
      location: { raw: ['Austin, TX'] },
      description_text: 'Build things.\nThe base salary range for this role is $120,000 - $150,000 per year.',
    });
    expect(e.salary?.annual_min).toBe(120000);
    expect(e.salary?.annual_max).toBe(150000);
  });

  it('never throws on arbitrary records', () => {
    const rec = fc.record({
      title: fc.string({ maxLength: 40 }),
      description_html: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
      description_text: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
      raw: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
      salary: fc.option(
        fc.record({
          text: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
          min: fc.option(fc.double(), { nil: undefined }),
          max: fc.option(fc.double(), { nil: undefined }),
          currency: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
          unit: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        }),
        { nil: undefined },
      ),
      employment_type: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 2 }), {
        nil: undefined,
      }),
      work_arrangement: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(rec, (r) => {
        const e = enrichPosting({ ...base, ...r, location: { raw: r.raw } });
        expect(['On-site', 'Hybrid', 'Remote']).toContain(e.work_arrangement);
        if (e.salary) expect(Number.isFinite(e.salary.annual_max ?? e.salary.annual_min)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('prototype keys in source values', () => {
  it('never resolve to inherited properties', () => {
    for (const v of ['__proto__', 'constructor', 'toString', 'valueOf']) {
      const e = enrichPosting({
        id: 'lever:p',
        source: 'lever',
        title: v,
        company: { name: v },
        url: 'https://x.example/p',
        work_arrangement: v,
        seniority: v,
        experience_level: v,
        employment_type: [v],
        location: { raw: [v, `${v}, ${v}`] },
      });
      expect(['On-site', 'Hybrid', 'Remote']).toContain(e.work_arrangement);
      expect(e.seniority === null || typeof e.seniority === 'string').toBe(true);
      expect(e.experience_level === null || typeof e.experience_level === 'string').toBe(true);
      expect(e.employment_type.every((x) => typeof x === 'string')).toBe(true);
      expect(JSON.parse(JSON.stringify(e))).toEqual(e);
    }
  });
});
