// Facts read from the description text: visa sponsorship, sections (requirements, responsibilities,
// benefits), working hours, keywords, language. Regexes are compiled once at load.
import { eld } from 'eld/extrasmall';

// ---- Visa sponsorship -----------------------------------------------------------------------------

// Negations first: "no sponsorship", "unable to sponsor", "must be authorized … without sponsorship".
const VISA_NEG =
  /\b(?:(?:no|not|cannot|can ?not|can't|unable to|won't|will not|do not|does not|don't|doesn't|are not able to|is not able to|not able to|without(?: the need for| requiring| needing)?|neither|nor)\b[^.\n]{0,60}?\b(?:sponsor(?:ship|ing)?|visas?)\b|\bsponsorship (?:is |will )?(?:not|unavailable)\b|\bnot (?:offer|provide)(?:ing)? (?:visa |work permit )?sponsorship\b|\bkeine (?:visa|arbeitserlaubnis)|\bpas de (?:parrainage|sponsorisation)|\bno (?:ofrecemos|patrocinamos))/i;
const VISA_POS =
  /\b(?:visa sponsorship|sponsor(?:ship)? (?:of )?(?:your |a |the )?(?:work |employment )?(?:visas?|permits?)|(?:we|will|can|are able to|happy to) (?:\w+ )?sponsor (?:\w+ ){0,2}(?:visas?|work permits?|h-?1b)|sponsorship (?:is )?(?:available|offered|provided)|h-?1b (?:sponsorship|transfer)|visa (?:support|assistance)|relocation and visa|work permit (?:support|assistance)|visum(?:s)?unterstützung|unterstützung (?:beim|bei der) visum|parrainage (?:de )?visa|patrocinio de visa)/i;

/** true when sponsorship is offered, false when the text declines it, null when not mentioned. */
export function visaSponsorship(text: string): boolean | null {
  if (!/sponsor|visa|visum|parrainage|patrocin|work permit|h-?1b/i.test(text)) return null;
  if (VISA_NEG.test(text)) return false;
  if (VISA_POS.test(text)) return true;
  return null;
}

// ---- Sections ------------------------------------------------------------------------------------

const HEADING = {
  requirements:
    /^(?:requirements?|qualifications?|(?:minimum|basic|preferred|required) qualifications|what you(?:'ll| will)? (?:need|bring)|what we(?:'re| are) looking for|who you are|about you|you have|your profile|your skills|skills(?: and| &) (?:experience|qualifications)|must[- ]haves?|we expect|ihr profil|dein profil|das bringst du mit|was du mitbringst|was sie mitbringen|anforderungen|profil recherch[ée]|votre profil|ton profil|comp[ée]tences requises|requisitos|tu perfil|qu[ée] buscamos|perfil)(?![\p{L}])/iu,
  responsibilities:
    /^(?:(?:key |main |core )?responsibilities|what you(?:'ll| will) do|your role|the role|role overview|your (?:tasks|mission|impact)|duties|job duties|in this role|day[- ]to[- ]day|deine aufgaben|ihre aufgaben|aufgaben|das erwartet dich|vos missions|missions?|vos responsabilit[ée]s|tes missions|responsabilidades|funciones|tus tareas|qu[ée] har[áa]s)(?![\p{L}])/iu,
  benefits:
    /^(?:benefits|perks(?: and benefits| & benefits)?|what we offer|what's in it for you|why (?:join us|you'll love working here|work with us)|we offer|our offer|compensation (?:and|&) benefits|wir bieten|was wir bieten|unser angebot|deine vorteile|benefits für dich|avantages|ce que nous offrons|nous offrons|ce qu'on t'offre|beneficios|ofrecemos|qu[ée] ofrecemos)(?![\p{L}])/iu,
};
const ANY_HEADING = new RegExp(
  Object.values(HEADING)
    .map((r) => r.source)
    .join('|'),
  'iu',
);
const BULLET_RE = /^(?:[-*•·▪◦–]|\d+[.)])\s*/;

export interface Sections {
  requirements: string[];
  responsibilities: string[];
  benefits: string[];
}

function isHeadingLine(line: string): boolean {
  if (line.length > 80 || BULLET_RE.test(line)) return false;
  return ANY_HEADING.test(line) || (/:$/.test(line) && line.length < 60 && !/[.!?]\s/.test(line));
}

/** Lines under the usual section headings of a plain-text description. */
export function sections(text: string): Sections {
  const out: Sections = { requirements: [], responsibilities: [], benefits: [] };
  let current: keyof Sections | undefined;
  let sawBullet = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const bullet = BULLET_RE.test(line);
    // A paragraph after a section's list is the text moving on, not part of the section.
    if (current && sawBullet && !bullet) current = undefined;
    if (bullet) sawBullet = true;
    if (isHeadingLine(line)) {
      current = undefined;
      sawBullet = false;
      for (const k of Object.keys(HEADING) as (keyof Sections)[]) {
        if (HEADING[k].test(line)) {
          current = k;
          break;
        }
      }
      continue;
    }
    if (current && out[current].length < 30) out[current].push(line.replace(BULLET_RE, '').trim());
  }
  return out;
}

/** Section lines joined into one string of at most `max` characters, cut at a line boundary. */
export function summarise(lines: readonly string[], max = 600): string | null {
  let s = '';
  for (const l of lines) {
    const item = /[.!?;:]$/.test(l) ? l : `${l};`;
    if (s.length + item.length + 1 > max) break;
    s = s ? `${s} ${item}` : item;
  }
  if (!s && lines.length) s = `${lines[0].slice(0, max - 1)}…`;
  return s ? s.replace(/;$/, '.') : null;
}

// Canonical benefits named in text without a benefits section.
const BENEFIT_PHRASES: [RegExp, string][] = [
  [/\b(?:health|medical) (?:insurance|coverage|benefits)\b/i, 'Health insurance'],
  [/\bdental\b/i, 'Dental insurance'],
  [/\bvision (?:insurance|coverage)\b/i, 'Vision insurance'],
  [/\b401\(?k\)?\b/i, '401(k)'],
  [/\b(?:pension|retirement plan|betriebliche altersvorsorge)\b/i, 'Pension plan'],
  [/\b(?:stock options?|equity|esop|rsus?)\b/i, 'Equity'],
  [
    /\b(?:paid time off|pto|unlimited (?:vacation|pto)|\d+ days (?:of )?(?:annual leave|holiday|vacation)|urlaubstage)\b/i,
    'Paid time off',
  ],
  [/\b(?:parental|maternity|paternity) leave\b/i, 'Parental leave'],
  [
    /\b(?:remote work|work from home|home ?office|flexible working|flexible hours|flexible schedule|flexible arbeitszeiten)\b/i,
    'Flexible working',
  ],
  [
    /\b(?:learning (?:and|&) development|training budget|education budget|weiterbildung|conference budget)\b/i,
    'Learning budget',
  ],
  [/\b(?:bonus|performance bonus|annual bonus)\b/i, 'Bonus'],
  [/\b(?:gym|wellness|fitness)\b/i, 'Wellness'],
  [/\b(?:life insurance)\b/i, 'Life insurance'],
  [/\b(?:relocation (?:package|assistance|support))\b/i, 'Relocation support'],
  [/\b(?:commuter|transit|public transport|jobticket|deutschlandticket)\b/i, 'Commuter benefits'],
  [/\b(?:free (?:lunch|meals|snacks)|meal vouchers?|catered)\b/i, 'Meals'],
];

/** Benefits: the benefits section as posted, else canonical names of benefits the text mentions. */
// Departments named by title words, for postings whose source gives none.
const DEPARTMENTS: [RegExp, string][] = [
  [
    /\b(?:software|developer|engineer(?:ing)?|devops|sre|entwickler|ingenieur|ingénieur|développeur|desarrollador|programmer|architect)\b/i,
    'Engineering',
  ],
  [/\b(?:data|analytics|machine learning|scientist|bi)\b/i, 'Data'],
  [/\b(?:product manager|product owner|product lead)\b/i, 'Product'],
  [/\b(?:designer|design|ux|ui)\b/i, 'Design'],
  [
    /\b(?:sales|account executive|account manager|business development|sdr|bdr|vertrieb|ventas|commercial)\b/i,
    'Sales',
  ],
  [/\b(?:marketing|seo|growth|brand|content|communications)\b/i, 'Marketing'],
  [
    /\b(?:customer success|customer support|customer service|support specialist|kundenservice|service client)\b/i,
    'Customer Success',
  ],
  [
    /\b(?:finance|financial|accountant|accounting|controller|controlling|buchhalt|comptab|contable|tax|payroll)\b/i,
    'Finance',
  ],
  [/\b(?:hr|human resources|recruit(?:er|ing|ment)|talent|people)\b/i, 'Human Resources'],
  [/\b(?:legal|counsel|lawyer|attorney|paralegal|jurist)\b/i, 'Legal'],
  [/\b(?:it support|it administrator|system administrator|sysadmin|helpdesk|help desk)\b/i, 'IT'],
  [/\b(?:operations|logistics|warehouse|supply chain|procurement)\b/i, 'Operations'],
];

/** A department implied by the title ("Senior Backend Engineer" → Engineering), or null. */
export function department(title: string): string | null {
  for (const [re, d] of DEPARTMENTS) if (re.test(title)) return d;
  return null;
}

export function benefits(text: string, section: readonly string[]): string[] {
  if (section.length) return section.slice(0, 20).map((l) => (l.length > 200 ? `${l.slice(0, 199)}…` : l));
  const out: string[] = [];
  for (const [re, name] of BENEFIT_PHRASES) if (re.test(text)) out.push(name);
  return out;
}

// ---- Working hours -------------------------------------------------------------------------------

const HOURS_RE =
  /\b(\d{1,2}(?:[.,]\d)?)\s*(?:(?:-|–|to|bis|à)\s*(\d{1,2}(?:[.,]\d)?)\s*)?(?:hours?|hrs?|h|stunden|std\.?|heures|horas)\s*(?:per|a|\/|pro|par|por|in der|je|each)\s*(?:week|wk|woche|semaine|semana)\b/i;
const HOURS_ALT_RE =
  /\b(?:wochenarbeitszeit|arbeitszeit)(?: von| beträgt)?\s*(\d{1,2}(?:[.,]\d)?)\s*(?:stunden|std|h)\b/i;

/** Weekly hours the text states ("40 hours per week", "20–30 Stunden/Woche": the upper bound). */
export function workingHours(text: string): number | null {
  const m = HOURS_RE.exec(text) ?? HOURS_ALT_RE.exec(text);
  if (!m) return null;
  const n = Number((m[2] ?? m[1]).replace(',', '.'));
  return n >= 1 && n <= 80 ? n : null;
}

// ---- Keywords ------------------------------------------------------------------------------------

const STOPWORDS = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each etc few for from further had has have having he her here hers how i if in into is it its ' +
    'just me more most my no nor not of off on once only or other our ours out over own per same she should so some such than that ' +
    'the their them then there these they this those through to too under until up very was we were what when where which while who ' +
    'whom why will with would you your yours within across via including include includes well new work working team teams role ' +
    'job position company experience strong ability able us join looking help make also using use used including based ' +
    'der die das und oder mit für von zu zum zur auf bei ist sind wir ihr sie du dein deine ein eine einen einem einer im in ' +
    'le la les et ou des du de un une pour avec dans au aux est sont nous vous votre vos ' +
    'el los las y o del con por para en un una es son nuestro nuestra tu su ' +
    'm w d f h x mwd wmd mfd'
  ).split(' '),
);
const WORD_RE = /[\p{L}][\p{L}\p{N}+#.-]*[\p{L}\p{N}+#]|[\p{L}]{2,}/gu;

/** Keywords: the title's significant words, then the description's most frequent significant words. */
export function keywords(title: string, text: string, limit = 15): string[] {
  const out: string[] = [];
  for (const w of title.toLowerCase().match(WORD_RE) ?? []) {
    if (w.length > 1 && !STOPWORDS.has(w) && !out.includes(w)) out.push(w);
  }
  const counts = new Map<string, number>();
  const head = text.length > 10000 ? text.slice(0, 10000) : text;
  for (const w of head.toLowerCase().match(WORD_RE) ?? []) {
    if (w.length < 4 || STOPWORDS.has(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const ranked = [...counts.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [w] of ranked) {
    if (out.length >= limit) break;
    if (!out.includes(w)) out.push(w);
  }
  return out.slice(0, limit);
}

// ---- Language ------------------------------------------------------------------------------------

/** Minimum letters for a language guess: shorter texts are too often wrong. */
const MIN_LETTERS = 40;

/**
 * ISO-639-1 code of the text (eld, extra-small database: fast, ~60 languages), or null when the text
 * is too short or the guess unreliable. Only the first ~600 characters are read: enough for a guess.
 */
export function detectLanguage(text: string): string | null {
  const sample = text.length > 600 ? text.slice(0, 600) : text;
  const letters = sample.replace(/[^\p{L}]/gu, '').length;
  if (letters < MIN_LETTERS) return null;
  const r = eld.detect(sample);
  if (!r.language || !r.isReliable()) return null;
  return r.language;
}
