import { describe, expect, it } from 'vitest';
import { arrangementFromText } from '../../src/enrich/arrangement.ts';
import { enrichPosting } from '../../src/enrich/posting.ts';

describe('work arrangement stated in the description', () => {
  it.each([
    // English
    ['This role is hybrid, with three days a week in our Munich office.', 'Hybrid'],
    ['You will work from our London office 2 days per week and from home the rest of the time.', 'Hybrid'],
    ['We work hybrid: two office days a week, the rest wherever you like.', 'Hybrid'],
    ['Hybrid (3 days on-site)', 'Hybrid'],
    ['Expect to split your time between home and our Austin hub.', 'Hybrid'],
    ['A mix of remote and office work.', 'Hybrid'],
    ['This is a fully remote position open to candidates across Canada.', 'Remote'],
    ['The role can be performed remotely from anywhere in Spain.', 'Remote'],
    ['We are a remote-first company.', 'Remote'],
    ['This position is remote.', 'Remote'],
    // German
    ['Hybrides Arbeiten: zwei Tage pro Woche im Büro in Hamburg.', 'Hybrid'],
    ['Du arbeitest 3 Tage die Woche mobil und 2 Tage im Büro.', 'Hybrid'],
    ['Die Stelle ist komplett remote.', 'Remote'],
    ['Du arbeitest zu 100 % im Homeoffice.', 'Remote'],
    // French
    ['Poste en mode hybride, deux jours de télétravail par semaine.', 'Hybrid'],
    ['Télétravail possible 2 jours par semaine.', 'Hybrid'],
    ['Poste 100 % en télétravail.', 'Remote'],
    // Spanish
    ['Modelo híbrido: 3 días a la semana en la oficina de Madrid.', 'Hybrid'],
    ['Ofrecemos teletrabajo parcial.', 'Hybrid'],
    ['Trabajo 100% remoto desde cualquier lugar de España.', 'Remote'],
    // Dutch
    ['Hybride werken: twee dagen per week op kantoor in Utrecht.', 'Hybrid'],
    ['Deze functie is volledig remote.', 'Remote'],
    // Italian, Portuguese
    ['Modalità ibrida con 2 giorni a settimana in ufficio.', 'Hybrid'],
    ['Vaga 100% remota.', 'Remote'],
  ])('%s → %s', (text, want) => {
    expect(arrangementFromText(text)).toBe(want);
  });

  it.each([
    'Join our team in Berlin to build hybrid cloud infrastructure.',
    'We sell hybrid vehicles across Europe.',
    'This is not a remote role; you will be based at our plant.',
    'No remote work: the position is on our production floor.',
    'Leider ist kein Homeoffice möglich, 100 % remote geht nicht.',
    'We offer 30 days of paid vacation.',
    'Network engineer with 5 days of training in our office in the first month.',
    '',
  ])('says nothing usable: %s', (text) => {
    expect(arrangementFromText(text)).toBeUndefined();
  });

  it('the text decides only when source and location say nothing; else the default is On-site', () => {
    const base = {
      id: 'x:1',
      source: 'greenhouse',
      title: 'Analyst',
      company: { name: 'A' },
      url: 'https://a.example/1',
    };
    const hybridText = '<p>This role is hybrid, with three days a week in our Munich office.</p>';
    expect(enrichPosting({ ...base, description_html: hybridText }).work_arrangement).toBe('Hybrid');
    expect(
      enrichPosting({ ...base, description_html: hybridText, work_arrangement: 'Remote' }).work_arrangement,
    ).toBe('Remote');
    expect(
      enrichPosting({ ...base, description_html: hybridText, location: { raw: ['Remote - Germany'] } })
        .work_arrangement,
    ).toBe('Remote');
    expect(enrichPosting({ ...base, description_html: '<p>Build dashboards.</p>' }).work_arrangement).toBe(
      'On-site',
    );
  });
});
