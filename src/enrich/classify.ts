// Classification into the spec's enums: employment type, seniority, experience, education.
// Source spellings are mapped first; the title and text are read only when the source gives nothing.

import { EDUCATION, EMPLOYMENT_TYPES, EXPERIENCE_LEVELS as EXPERIENCE, SENIORITY } from '../enums.ts';

// Widened to string lists: these look up arbitrary source strings.
const SENIORITIES: readonly string[] = SENIORITY;
export const EXPERIENCE_LEVELS: readonly string[] = EXPERIENCE;
export const EDUCATION_LEVELS: readonly string[] = EDUCATION;

const squash = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

// Whole spellings first (after squashing case, spaces, dashes and underscores).
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const EMPLOYMENT_EXACT: Record<string, string[]> = Object.setPrototypeOf(
  {
    fulltime: ['FULL_TIME'],
    permanent: ['FULL_TIME'],
    fulltimepermanent: ['FULL_TIME'],
    regular: ['FULL_TIME'],
    fulltimeemployee: ['FULL_TIME'],
    vollzeit: ['FULL_TIME'],
    festanstellung: ['FULL_TIME'],
    cdi: ['FULL_TIME'],
    tempsplein: ['FULL_TIME'],
    jornadacompleta: ['FULL_TIME'],
    tiempocompleto: ['FULL_TIME'],
    employee: ['FULL_TIME'],
    parttime: ['PART_TIME'],
    teilzeit: ['PART_TIME'],
    tempspartiel: ['PART_TIME'],
    mediajornada: ['PART_TIME'],
    fullorparttime: ['FULL_TIME', 'PART_TIME'],
    fulltimeparttime: ['FULL_TIME', 'PART_TIME'],
    contract: ['CONTRACTOR'],
    contractor: ['CONTRACTOR'],
    freelance: ['CONTRACTOR'],
    freelancer: ['CONTRACTOR'],
    contracttohire: ['CONTRACTOR'],
    consultant: ['CONTRACTOR'],
    b2b: ['CONTRACTOR'],
    selfemployed: ['CONTRACTOR'],
    temporary: ['TEMPORARY'],
    temp: ['TEMPORARY'],
    fixedterm: ['TEMPORARY'],
    seasonal: ['TEMPORARY'],
    befristet: ['TEMPORARY'],
    cdd: ['TEMPORARY'],
    interim: ['TEMPORARY'],
    intern: ['INTERN'],
    internship: ['INTERN'],
    trainee: ['INTERN'],
    traineeship: ['INTERN'],
    apprentice: ['INTERN'],
    apprenticeship: ['INTERN'],
    workingstudent: ['INTERN'],
    werkstudent: ['INTERN'],
    praktikum: ['INTERN'],
    stage: ['INTERN'],
    student: ['INTERN'],
    coop: ['INTERN'],
    perdiem: ['PER_DIEM'],
    prn: ['PER_DIEM'],
    volunteer: ['VOLUNTEER'],
    voluntary: ['VOLUNTEER'],
    other: ['OTHER'],
  },
  null,
);
// Compound codes ("fulltime_fixed_term", "parttime_permanent"): every part that names a type counts.
const EMPLOYMENT_PARTS: [RegExp, string][] = [
  [/full/, 'FULL_TIME'],
  [/part/, 'PART_TIME'],
  [/contract|freelanc/, 'CONTRACTOR'],
  [/fixedterm|temporar|seasonal/, 'TEMPORARY'],
  [/intern|trainee|apprentic/, 'INTERN'],
  [/perdiem/, 'PER_DIEM'],
  [/volunt/, 'VOLUNTEER'],
];

/** Map source spellings ("Full-time", "FullTime", "fulltime_permanent", "freelance") to the enum. */
export function mapEmploymentTypes(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const k = squash(v);
    if (!k) continue;
    if ((EMPLOYMENT_TYPES as readonly string[]).includes(v.trim())) {
      if (!out.includes(v.trim())) out.push(v.trim());
      continue;
    }
    const exact = EMPLOYMENT_EXACT[k];
    const types = exact ?? EMPLOYMENT_PARTS.filter(([re]) => re.test(k)).map(([, t]) => t);
    for (const t of types.length ? types : ['OTHER']) if (!out.includes(t)) out.push(t);
  }
  return out;
}

const TITLE_EMPLOYMENT: [RegExp, string][] = [
  [
    /\b(?:intern(?:ship)?|praktikant(?:in)?|praktikum|werkstudent(?:in)?|stagiaire|stage|becari[oa]|pr[áa]cticas|co-?op|apprentice(?:ship)?|ausbildung|alternance|trainee)\b/i,
    'INTERN',
  ],
  [/\b(?:part[- ]time|teilzeit|temps partiel|media jornada|minijob)\b/i, 'PART_TIME'],
  [/\b(?:contract(?:or)?|freelance(?:r)?|freiberuflich|b2b|1099)\b/i, 'CONTRACTOR'],
  [/\b(?:temporary|temp|seasonal|befristet|fixed[- ]term|cdd|interim)\b/i, 'TEMPORARY'],
  [/\b(?:per diem|prn)\b/i, 'PER_DIEM'],
  [/\b(?:volunteer|ehrenamt(?:lich)?|b[ée]n[ée]vole|voluntari[oa])\b/i, 'VOLUNTEER'],
  [/\b(?:full[- ]time|vollzeit|temps plein|tiempo completo|jornada completa)\b/i, 'FULL_TIME'],
];
const TEXT_EMPLOYMENT: [RegExp, string][] = [
  [
    /\b(?:full[- ]time (?:position|role|job|employment|permanent|opportunity)|permanent,? full[- ]time|this is a full[- ]time|in vollzeit|unbefristet|cdi\b|temps plein)/i,
    'FULL_TIME',
  ],
  [
    /\b(?:part[- ]time (?:position|role|job|employment|opportunity)|this is a part[- ]time|in teilzeit|temps partiel)/i,
    'PART_TIME',
  ],
  [
    /\b(?:contract (?:position|role|assignment)|this is a contract|freelance (?:position|role|project))/i,
    'CONTRACTOR',
  ],
  [/\b(?:internship (?:program|position|role)|this is an internship|pflichtpraktikum)/i, 'INTERN'],
  [/\b(?:temporary (?:position|role|assignment)|fixed[- ]term contract|befristet)/i, 'TEMPORARY'],
];

/** Employment types read from the title, else from explicit phrases in the text. */
export function inferEmploymentTypes(title: string, text: string): string[] {
  const out: string[] = [];
  for (const [re, t] of TITLE_EMPLOYMENT) if (re.test(title) && !out.includes(t)) out.push(t);
  if (out.length) return out;
  const head = text.length > 8000 ? text.slice(0, 8000) : text;
  for (const [re, t] of TEXT_EMPLOYMENT) if (re.test(head) && !out.includes(t)) out.push(t);
  return out;
}

// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const SENIORITY_SOURCE: Record<string, string> = Object.setPrototypeOf(
  {
    internship: 'Internship',
    intern: 'Internship',
    student: 'Internship',
    entrylevel: 'Entry level',
    entry: 'Entry level',
    junior: 'Entry level',
    graduate: 'Entry level',
    associate: 'Associate',
    midseniorlevel: 'Mid-Senior level',
    midsenior: 'Mid-Senior level',
    experienced: 'Mid-Senior level',
    mid: 'Mid-Senior level',
    midlevel: 'Mid-Senior level',
    senior: 'Mid-Senior level',
    seniorlevel: 'Mid-Senior level',
    director: 'Director',
    executive: 'Management',
    management: 'Management',
    manager: 'Management',
  },
  null,
);

/** Map a source's seniority label (LinkedIn style, SmartRecruiters ids, Personio codes) to the enum. */
export function mapSeniority(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (SENIORITIES.includes(v)) return v;
  return SENIORITY_SOURCE[squash(v)];
}

const TITLE_SENIORITY: [RegExp, string][] = [
  [
    /\b(?:intern(?:ship)?|praktikant(?:in)?|praktikum|werkstudent(?:in)?|stagiaire|stage|becari[oa]|pr[áa]cticas|co-?op|trainee|apprentice|azubi|ausbildung)\b/i,
    'Internship',
  ],
  [
    /\b(?:chief|c[etofi]o|cxo|vice[- ]president|vp|svp|evp|president|head of|founder|partner|gesch[äa]ftsf[üu]hrer(?:in)?|managing director|general manager|directeur g[ée]n[ée]ral|director general|leiter(?:in)? (?:des|der)|bereichsleiter(?:in)?)\b/i,
    'Management',
  ],
  [/\b(?:director|directeur|directrice|direktor(?:in)?|directora?)\b/i, 'Director'],
  [
    /\b(?:senior|sr\.?|staff|principal|lead|manager|gerente|responsable|teamleiter(?:in)?|leiter(?:in)?|chef de|jefe|expert)\b/i,
    'Mid-Senior level',
  ],
  [
    /\b(?:junior|jr\.?|graduate|entry[- ]level|einsteiger|d[ée]butant|berufseinsteiger(?:in)?|new grad)\b/i,
    'Entry level',
  ],
  [/\b(?:associate|assistant|assistent(?:in)?)\b/i, 'Associate'],
];

/** Seniority from the title; failing that, from the experience the text asks for. */
export function inferSeniority(title: string, experience: string | undefined): string | undefined {
  for (const [re, s] of TITLE_SENIORITY) if (re.test(title)) return s;
  if (experience === '0-2') return 'Entry level';
  if (experience === '2-5') return 'Associate';
  if (experience === '5-10' || experience === '10+') return 'Mid-Senior level';
  return undefined;
}

// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const EXPERIENCE_SOURCE: Record<string, string> = Object.setPrototypeOf(
  {
    lt1: '0-2',
    '12': '0-2',
    '01': '0-2',
    '02': '0-2',
    '25': '2-5',
    '35': '2-5',
    '57': '5-10',
    '710': '5-10',
    '510': '5-10',
    '1015': '10+',
    gt15: '10+',
    '10': '10+',
    '15': '10+',
  },
  null,
);

/** Map a source's experience value ("2-5", Personio "lt-1", "gt-15", "5-7") to the enum. */
export function mapExperience(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (EXPERIENCE_LEVELS.includes(v)) return v;
  const k = v.toLowerCase().replace(/[^a-z0-9]/g, '');
  return EXPERIENCE_SOURCE[k] ?? (k === '10plus' ? '10+' : undefined);
}

/** The bucket of a minimum number of years. */
export function experienceBucket(years: number): string {
  if (years < 2) return '0-2';
  if (years < 5) return '2-5';
  if (years < 10) return '5-10';
  return '10+';
}

const YEARS_RE =
  /\b(\d{1,2})\s*(\+|plus)?\s*(?:(?:-|–|—|to|bis|à|a)\s*\d{1,2}\s*)?(\+)?\s*(?:years?|yrs?|jahre?n?|ans|años|anos|anni)\b/gi;
const EXPERIENCE_WORD_RE =
  /experience|exp\b|erfahrung|exp[ée]rience|experiencia|esperienza|working|work\b|\b(?:in|with|using|leading|driving|building|managing|as|of)\b/;
const MINIMUM_BEFORE_RE = /(?:minimum(?: of)?|at least|min\.?|mindestens|au moins|al menos)\s*$/i;
/** Not a requirement: history and duration ("for more than 3 years", "seit 70 Jahren", "a 2 year contract"). */
const NOT_REQUIRED_RE =
  /(?:more than|over|seit|since|for the (?:past|last)|within|first|next|after|ago)\s*$/i;

/**
 * Experience bucket from the years a text asks for ("5+ years of experience", "Minimum 2 years using SQL",
 * "3–5 Jahre Berufserfahrung"): the largest minimum of the requirements it states, since a posting that
 * asks for "7+ years, with at least 4+ years in pre-sales" asks for seven. A mention counts when it is
 * about experience (a word for experience or work follows), or is written as a requirement ("N+ years",
 * "minimum N years", "at least N years"); history and durations do not count.
 */
export function inferExperience(text: string): string | undefined {
  let most: number | undefined;
  const head = text.length > 15000 ? text.slice(0, 15000) : text;
  for (const m of head.matchAll(YEARS_RE)) {
    const n = Number(m[1]);
    if (n <= 0 || n > 30) continue;
    const before = head.slice(Math.max(0, m.index - 25), m.index);
    if (NOT_REQUIRED_RE.test(before)) continue;
    const after = head.slice(m.index + m[0].length, m.index + m[0].length + 60).toLowerCase();
    const required = !!(m[2] || m[3]) || MINIMUM_BEFORE_RE.test(before);
    const about = EXPERIENCE_WORD_RE.test(after.split(/[.;\n]/)[0]);
    if (!required && !about) continue;
    if (most === undefined || n > most) most = n;
  }
  return most === undefined ? undefined : experienceBucket(most);
}

const EDUCATION_SOURCE: [RegExp, string][] = [
  [/high ?school|secondary|ged|abitur|baccalaur[ée]at|bachillerato/, 'high school'],
  [/associate/, 'associate degree'],
  [/bachelor|undergrad|licence|grado|bsc|\bba\b|\bbs\b/, 'bachelor degree'],
  [/master|postgrad|doctor|phd|mba|msc|diplom/, 'postgraduate degree'],
  [/certif|vocational|professional|apprentice|ausbildung|trade/, 'professional certificate'],
];

/** Map source education labels ("Bachelor's Degree", "High School or equivalent", JSON-LD categories). */
export function mapEducation(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string') continue;
    if (EDUCATION_LEVELS.includes(v)) {
      if (!out.includes(v)) out.push(v);
      continue;
    }
    const k = v.toLowerCase();
    for (const [re, e] of EDUCATION_SOURCE) {
      if (re.test(k)) {
        if (!out.includes(e)) out.push(e);
        break;
      }
    }
  }
  return out;
}

const EDUCATION_TEXT: [RegExp, string][] = [
  [
    /\b(?:high school (?:diploma|degree|education)|ged\b|secondary school|abitur|fachabitur|baccalaur[ée]at)/i,
    'high school',
  ],
  [/\b(?:associate'?s? degree|associate of (?:arts|science))/i, 'associate degree'],
  [
    /\b(?:bachelor'?s?|b\.?sc?\.?(?=\s|,)|b\.?a\.?(?= degree| in)|undergraduate degree|university degree|college degree|four[- ]year degree|licenciatura|licence (?:en|pro|professionnelle)|bac ?\+ ?3|grado universitario|titulaci[óo]n universitaria|diplomatura|hbo[- ](?:niveau|opleiding|diploma)|laurea triennale|hochschulabschluss|studium)\b|\b(?:grado en|laurea in) \p{L}/iu,
    'bachelor degree',
  ],
  [
    /\b(?:master'?s?(?: degree)?(?= |,)|m\.?sc\.?|mba|ph\.?d|doctorate|postgraduate|doctoral|promotion|diplom|m[áa]ster)\b/i,
    'postgraduate degree',
  ],
  [
    /\b(?:certification required|professional certification|certified (?:nursing|medical|public)|trade certificate|vocational (?:training|qualification)|abgeschlossene ausbildung|berufsausbildung|apprenticeship|cdl|licensed (?:practical|vocational))\b/i,
    'professional certificate',
  ],
];

/** Education levels a description asks for. */
export function inferEducation(text: string): string[] {
  const out: string[] = [];
  const head = text.length > 15000 ? text.slice(0, 15000) : text;
  for (const [re, e] of EDUCATION_TEXT) if (re.test(head)) out.push(e);
  return out;
}
