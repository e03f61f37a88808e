import { describe, expect, it } from 'vitest';
import { titleKey } from '../../src/ingest/stages/title-key.ts';

describe('titleKey: the title copies are matched on', () => {
  it.each([
    ['Senior Data Engineer', [], 'Data Engineer (Senior)'],
    ['Senior Data Engineer', [], 'Sr. Data Engineer'],
    ['Senior Data Engineer', ['berlin', 'Germany'], 'Senior Data Engineer - Berlin'],
    ['Senior Data Engineer', ['new york city', 'New York'], 'Senior Data Engineer | New York'],
    ['Backend-Entwickler (m/w/d)', [], 'Backend-Entwickler (w/m/d)'],
    ['Commercial H/F', [], 'Commercial (F/H)'],
    ['Nurse', [], 'Urgent: Nurse - Immediate Start'],
    ['Warehouse Associate', [], 'Job: Warehouse Associate (all genders)'],
    ['Office Mgr', [], 'Office Manager'],
  ])('%s ≡ %s', (a, places, b) => {
    expect(titleKey(b, places)).toBe(titleKey(a, places));
  });

  it.each([
    ['Senior Data Engineer', 'Data Engineer'],
    ['Data Engineer II', 'Data Engineer'],
    ['Software Engineer', 'Software Developer'],
    ['Frontend Engineer', 'Backend Engineer'],
  ])('%s ≠ %s', (a, b) => {
    expect(titleKey(a)).not.toBe(titleKey(b));
  });

  it('a title of noise words only keeps its words', () => {
    expect(titleKey('Remote')).toBe('remote');
    expect(titleKey('Berlin', ['berlin'])).toBe('berlin');
  });
});
