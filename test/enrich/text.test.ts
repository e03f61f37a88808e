import { describe, expect, it } from 'vitest';
import {
  benefits,
  department,
  detectLanguage,
  keywords,
  sections,
  summarise,
  visaSponsorship,
  workingHours,
} from '../../src/enrich/text.ts';
import { taxonomies, TAXONOMIES } from '../../src/enrich/taxonomy.ts';

describe('visa sponsorship', () => {
  it.each([
    ['We are unable to sponsor visas for this role.', false],
    ['No sponsorship available.', false],
    ['This role does not offer visa sponsorship.', false],
    ['Candidates must be authorized to work in the US without the need for visa sponsorship.', false],
    ['We cannot provide sponsorship at this time.', false],
    ["Unfortunately we can't sponsor work visas.", false],
    ['Sponsorship is not available for this position.', false],
    ['We will not sponsor H-1B visas.', false],
    ['Applicants must not require sponsorship now or in the future.', false],
    ['Wir bieten leider keine Visa-Unterstützung.', false],
    ['Visa sponsorship available for the right candidate.', true],
    ['We sponsor work visas and help with relocation.', true],
    ['Relocation and visa support provided.', true],
    ['We are happy to sponsor your visa.', true],
    ['H-1B transfer welcome.', true],
    ['We sponsor local charity events every year.', null],
    ['Great team, great product.', null],
  ])('%s → %s', (text, want) => {
    expect(visaSponsorship(text)).toBe(want);
  });
});

const TEXT = `About us
We build tools for teams.
What you'll do:
- Design and ship APIs
- Own services end to end
Requirements
- 5+ years of experience
- Bachelor's degree
Benefits
- Health insurance
- 30 days of vacation
We look forward to your application.`;

describe('sections', () => {
  it('splits requirements, responsibilities and benefits, and stops at a closing paragraph', () => {
    expect(sections(TEXT)).toEqual({
      responsibilities: ['Design and ship APIs', 'Own services end to end'],
      requirements: ['5+ years of experience', "Bachelor's degree"],
      benefits: ['Health insurance', '30 days of vacation'],
    });
  });

  it('reads German and French headings', () => {
    const de = sections(
      'Deine Aufgaben\n- Entwicklung von Services\nDein Profil\n- Studium der Informatik\nWir bieten\n- Jobticket',
    );
    expect(de).toEqual({
      responsibilities: ['Entwicklung von Services'],
      requirements: ['Studium der Informatik'],
      benefits: ['Jobticket'],
    });
    const fr = sections('Vos missions :\n- Automatiser\nProfil recherché :\n- 2 ans d’expérience');
    expect(fr.responsibilities).toEqual(['Automatiser']);
    expect(fr.requirements).toEqual(['2 ans d’expérience']);
  });

  it('summarises lines into one string', () => {
    expect(summarise(['Design and ship APIs', 'Own services end to end'])).toBe(
      'Design and ship APIs; Own services end to end.',
    );
    expect(summarise([])).toBeNull();
  });
});

describe('benefits', () => {
  it('keeps a posted benefits section', () => {
    expect(benefits('', ['Health insurance', 'Gym'])).toEqual(['Health insurance', 'Gym']);
  });
  it('names benefits the text mentions when there is no section', () => {
    expect(benefits('We offer medical insurance, a 401(k) plan and parental leave.', [])).toEqual([
      'Health insurance',
      '401(k)',
      'Parental leave',
    ]);
  });
});

describe('working hours', () => {
  it.each([
    ['This is a 40 hours per week position.', 40],
    ['Working time: 20-30 hours a week', 30],
    ['38,5 Stunden pro Woche', 38.5],
    ['Wochenarbeitszeit von 39 Stunden', 39],
    ['35 heures par semaine', 35],
    ['Available 24 hours a day', null],
    ['No hours mentioned', null],
  ])('%s → %s', (text, want) => {
    expect(workingHours(text)).toBe(want);
  });
});

describe('language', () => {
  it.each([
    [
      'We are looking for a senior software engineer to join our team and build scalable backend services.',
      'en',
    ],
    [
      'Wir suchen einen erfahrenen Softwareentwickler für unser Team in München. Du entwickelst skalierbare Dienste.',
      'de',
    ],
    ['Nous recherchons un développeur logiciel expérimenté pour rejoindre notre équipe à Paris.', 'fr'],
    ['Buscamos un desarrollador de software con experiencia para unirse a nuestro equipo en Madrid.', 'es'],
    ['Cerchiamo uno sviluppatore software con esperienza per il nostro team di Milano.', 'it'],
    ['Wij zoeken een ervaren softwareontwikkelaar voor ons team in Amsterdam.', 'nl'],
    ['Too short', null],
    ['', null],
  ])('%s → %s', (text, want) => {
    expect(detectLanguage(text)).toBe(want);
  });
});

describe('taxonomies', () => {
  it.each([
    ['Senior Backend Software Engineer', ['Engineering', 'Software']],
    ['Registered Nurse - ICU', ['Healthcare']],
    ['Account Executive', ['Sales']],
    ['Buchhalter (m/w/d)', ['Finance & Accounting']],
    ['Infirmier de nuit', ['Healthcare']],
    ['Data Analyst', ['Data & Analytics']],
    ['CDL Truck Driver', ['Transportation']],
    ['Recruiter', ['Human Resources']],
    ['Paralegal', ['Legal']],
    ['Electrician', ['Trades']],
  ])('title %s → %j', (title, want) => {
    expect(taxonomies(title, '')).toEqual(want);
  });

  it('reads the description when the title names no field', () => {
    const text =
      'You will care for patients on the ward. Patient safety and clinical excellence. Our patients and their families.';
    expect(taxonomies('Team Member', text)).toEqual(['Healthcare']);
    expect(taxonomies('Team Member', 'Nothing specific here.')).toEqual([]);
  });

  it('only ever returns the 28 spec values', () => {
    expect(TAXONOMIES).toHaveLength(28);
    for (const t of taxonomies('Senior Data Engineer, Marketing Analytics Lead', 'sales data finance')) {
      expect(TAXONOMIES as readonly string[]).toContain(t);
    }
  });
});

describe('keywords and department', () => {
  it('keywords start with the title words, without stopwords or gender markers', () => {
    expect(keywords('Softwareentwickler (m/w/d) für Backend', '')).toEqual(['softwareentwickler', 'backend']);
  });
  it.each([
    ['Senior Backend Engineer', 'Engineering'],
    ['Account Executive', 'Sales'],
    ['Recruiter', 'Human Resources'],
    ['Barista', null],
  ])('department of %s → %s', (title, want) => {
    expect(department(title)).toBe(want);
  });
});
