import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayTitle } from '../../src/enrich/title.ts';

describe('displayTitle', () => {
  it.each([
    ['SENIOR SOFTWARE ENGINEER', 'Senior Software Engineer'],
    ['  Senior   Software\tEngineer  ', 'Senior Software Engineer'],
    ['SENIOR DATA ANALYST - EMEA', 'Senior Data Analyst - EMEA'],
    ['VP OF ENGINEERING', 'VP of Engineering'],
    ['HEAD OF HR AND IT', 'Head of HR and IT'],
    ['FULL-STACK DEVELOPER (REACT/NODE)', 'Full-Stack Developer (React/Node)'],
    ['DEVOPS/SRE ENGINEER II', 'DevOps/SRE Engineer II'],
    ['SOFTWAREENTWICKLER (M/W/D)', 'Softwareentwickler (m/w/d)'],
    ['LEITER DER BUCHHALTUNG (M/W/D)', 'Leiter der Buchhaltung (m/w/d)'],
    ['INGÉNIEUR DEVOPS H/F', 'Ingénieur DevOps H/F'],
    ['CHEF DE PROJET DIGITAL', 'Chef de Projet Digital'],
    ['DESARROLLADOR BACKEND CON EXPERIENCIA EN JAVA', 'Desarrollador Backend con Experiencia en Java'],
    ['JEFE DE VENTAS Y MARKETING', 'Jefe de Ventas y Marketing'],
    ['ÉLECTRICIEN DE MAINTENANCE', 'Électricien de Maintenance'],
    ['QA', 'QA'],
    ['CEO', 'CEO'],
    ['Senior iOS Engineer', 'Senior iOS Engineer'],
    ['Data Scientist, NLP', 'Data Scientist, NLP'],
    ['', ''],
  ])('%j → %j', (raw, want) => {
    expect(displayTitle(raw)).toBe(want);
  });

  it('never throws and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const once = displayTitle(s);
        expect(displayTitle(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
