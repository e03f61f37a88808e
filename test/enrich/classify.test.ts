import { describe, expect, it } from 'vitest';
import {
  experienceBucket,
  inferEducation,
  inferEmploymentTypes,
  inferExperience,
  inferSeniority,
  mapEducation,
  mapEmploymentTypes,
  mapExperience,
  mapSeniority,
} from '../../src/enrich/classify.ts';

describe('employment type: every source spelling', () => {
  it.each([
    // Lever commitment, Workable, SmartRecruiters, Workday timeType
    ['Full-time', ['FULL_TIME']],
    ['Full time', ['FULL_TIME']],
    ['Part-time', ['PART_TIME']],
    ['Contract', ['CONTRACTOR']],
    ['Temporary', ['TEMPORARY']],
    ['Intern', ['INTERN']],
    ['Internship', ['INTERN']],
    ['Other', ['OTHER']],
    // Ashby
    ['FullTime', ['FULL_TIME']],
    ['PartTime', ['PART_TIME']],
    // Recruitee
    ['fulltime', ['FULL_TIME']],
    ['parttime', ['PART_TIME']],
    ['fulltime_permanent', ['FULL_TIME']],
    ['fulltime_fixed_term', ['FULL_TIME', 'TEMPORARY']],
    ['parttime_permanent', ['PART_TIME']],
    ['internship', ['INTERN']],
    // Personio employmentType and schedule
    ['permanent', ['FULL_TIME']],
    ['intern', ['INTERN']],
    ['trainee', ['INTERN']],
    ['freelance', ['CONTRACTOR']],
    ['full-time', ['FULL_TIME']],
    ['part-time', ['PART_TIME']],
    ['full-or-part-time', ['FULL_TIME', 'PART_TIME']],
    // schema.org
    ['FULL_TIME', ['FULL_TIME']],
    ['CONTRACTOR', ['CONTRACTOR']],
    ['PER_DIEM', ['PER_DIEM']],
    ['VOLUNTEER', ['VOLUNTEER']],
    // Other languages
    ['Vollzeit', ['FULL_TIME']],
    ['Teilzeit', ['PART_TIME']],
    ['Werkstudent', ['INTERN']],
    ['CDI', ['FULL_TIME']],
    ['CDD', ['TEMPORARY']],
    ['Per diem', ['PER_DIEM']],
    ['Something else', ['OTHER']],
  ])('%s → %j', (v, want) => {
    expect(mapEmploymentTypes([v])).toEqual(want);
  });

  it('merges several values without duplicates and ignores non-strings', () => {
    expect(mapEmploymentTypes(['Full-time', 'FULL_TIME', 'Contract', 3, null, ''])).toEqual([
      'FULL_TIME',
      'CONTRACTOR',
    ]);
  });

  it.each([
    ['Software Engineering Intern', '', ['INTERN']],
    ['Werkstudent (m/w/d) Marketing', '', ['INTERN']],
    ['Stagiaire Développeur H/F', '', ['INTERN']],
    ['Part-Time Barista', '', ['PART_TIME']],
    ['Freelance Copywriter', '', ['CONTRACTOR']],
    ['Seasonal Warehouse Associate', '', ['TEMPORARY']],
    ['Nurse', 'This is a full-time position with benefits.', ['FULL_TIME']],
    ['Nurse', 'Join our team.', []],
  ])('inferred from %s', (title, text, want) => {
    expect(inferEmploymentTypes(title, text)).toEqual(want);
  });
});

describe('seniority', () => {
  it.each([
    ['Mid-Senior level', 'Mid-Senior level'],
    ['mid_senior_level', 'Mid-Senior level'],
    ['entry_level', 'Entry level'],
    ['entry-level', 'Entry level'],
    ['experienced', 'Mid-Senior level'],
    ['executive', 'Management'],
    ['director', 'Director'],
    ['student', 'Internship'],
    ['Associate', 'Associate'],
  ])('source %s → %s', (v, want) => {
    expect(mapSeniority(v)).toBe(want);
  });

  it.each([
    ['Senior Backend Engineer', 'Mid-Senior level'],
    ['Junior Accountant', 'Entry level'],
    ['VP of Engineering', 'Management'],
    ['Chief Technology Officer', 'Management'],
    ['Head of Marketing', 'Management'],
    ['Director of Sales', 'Director'],
    ['Praktikant (m/w/d) Vertrieb', 'Internship'],
    ['Becario de Marketing', 'Internship'],
    ['Geschäftsführer (m/w/d)', 'Management'],
    ['Directeur Commercial H/F', 'Director'],
    ['Associate Product Manager', 'Mid-Senior level'],
    ['Legal Associate', 'Associate'],
    ['Staff Engineer', 'Mid-Senior level'],
  ])('title %s → %s', (title, want) => {
    expect(inferSeniority(title, undefined)).toBe(want);
  });

  it('falls back on the experience asked for', () => {
    expect(inferSeniority('Accountant', '0-2')).toBe('Entry level');
    expect(inferSeniority('Accountant', '2-5')).toBe('Associate');
    expect(inferSeniority('Accountant', '5-10')).toBe('Mid-Senior level');
    expect(inferSeniority('Accountant', undefined)).toBeUndefined();
  });
});

describe('experience', () => {
  it.each([
    ['lt-1', '0-2'],
    ['1-2', '0-2'],
    ['2-5', '2-5'],
    ['5-7', '5-10'],
    ['7-10', '5-10'],
    ['10-15', '10+'],
    ['gt-15', '10+'],
    ['10+', '10+'],
  ])('source %s → %s', (v, want) => {
    expect(mapExperience(v)).toBe(want);
  });

  it.each([
    ['5+ years of experience with Go', '5-10'],
    ['At least 3 years of professional experience', '2-5'],
    ['1-2 years experience in retail', '0-2'],
    ['Mindestens 3 Jahre Berufserfahrung', '2-5'],
    ["2 ans d'expérience minimum", '2-5'],
    ['10+ years of experience leading teams', '10+'],
    ['3 años de experiencia', '2-5'],
    ['Founded 25 years ago, we are a 2 year old team.', undefined],
  ])('text %s → %s', (text, want) => {
    expect(inferExperience(text)).toBe(want);
  });

  it('buckets', () => {
    expect([0, 1, 2, 4, 5, 9, 10, 20].map(experienceBucket)).toEqual([
      '0-2',
      '0-2',
      '2-5',
      '2-5',
      '5-10',
      '5-10',
      '10+',
      '10+',
    ]);
  });
});

describe('education', () => {
  it.each([
    ["Bachelor's Degree", ['bachelor degree']],
    ["Master's Degree", ['postgraduate degree']],
    ['Doctorate', ['postgraduate degree']],
    ['High School or equivalent', ['high school']],
    ['Associate Degree', ['associate degree']],
    ['Professional', ['professional certificate']],
    ['Vocational', ['professional certificate']],
    ['bachelor degree', ['bachelor degree']],
    ['postgraduate degree', ['postgraduate degree']],
    ['Grado universitario', ['bachelor degree']],
  ])('source %s → %j', (v, want) => {
    expect(mapEducation([v])).toEqual(want);
  });

  it.each([
    ["Bachelor's degree in Computer Science or related field", ['bachelor degree']],
    ['BSc or MSc in Physics', ['bachelor degree', 'postgraduate degree']],
    ['PhD in Machine Learning preferred', ['postgraduate degree']],
    ['High school diploma or GED required', ['high school']],
    ['Abgeschlossene Ausbildung als Elektriker', ['professional certificate']],
    ['Valid CDL Class A', ['professional certificate']],
    ['Friendly team, great coffee', []],
    ['Grado en Ingeniería Informática o similar', ['bachelor degree']],
    ['Requisitos: Grado en Administración y Dirección de Empresas.', ['bachelor degree']],
    ['Licenciatura en Derecho', ['bachelor degree']],
    ['Afgeronde hbo-opleiding in de richting Informatica', ['bachelor degree']],
    ['Laurea in Ingegneria Gestionale', ['bachelor degree']],
    ['Buen grado de autonomía', []],
    ['Driving licence required', []],
    ['Licence en informatique ou équivalent (Bac+3)', ['bachelor degree']],
  ])('text %s → %j', (text, want) => {
    expect(inferEducation(text)).toEqual(want);
  });
});
