// Taxonomies: the spec's 28 Title-Case values, from the title (strong) and the description (weak).
import { TAXONOMIES } from '../enums.ts';

export { TAXONOMIES };

// Word stems per taxonomy (English, German, French, Spanish). Title hits decide; description hits only
// break a tie when the title says nothing.
const RULES: Record<(typeof TAXONOMIES)[number], string> = {
  Administrative:
    'administrative|administrator|admin assistant|office manager|receptionist|secretary|executive assistant|personal assistant|data entry|clerk|sachbearbeiter|assistenz|büro|empfang|secrétaire|assistant administratif|administrativ[oa]|recepcionista',
  Agriculture: 'agricultur|farm|agronom|crop|livestock|horticultur|landwirt|agrar|agricole|agrícola|forestry',
  'Art & Design':
    'designer|design|webdesign|ux(?= design| research| writer|/ui)|ui(?= design|/ux)|ui/ux|ux/ui|graphic|illustrat|art director|artist|animator|gestalter|diseñador|concepteur',
  Construction:
    'construction|site manager|civil engineer|(?<!(?:solutions?|software|cloud|platform|data|enterprise|security|systems?|technical|network|aws|azure|salesforce|application|integration|it|solution) )architect|surveyor|foreman|bauleiter|bau|chantier|construcción|obra',
  Consulting: 'consultant|consulting|advisory|berater|beratung|consultor|conseil',
  'Creative & Media':
    'writer|editor|copywriter|content|journalist|video|photograph|producer|media|redakteur|rédacteur|redactor|communications',
  'Customer Service & Support':
    'customer service|customer support|customer success|customer happiness|customer experience|customer care|customer engagement|chat specialist|support chat|support specialist|support engineer|support operations|help ?desk|service desk|call center|call centre|kundenservice|kundenbetreuer|service client|atención al cliente|technical support',
  'Data & Analytics':
    'data|analytics|analyst|business intelligence|bi developer|machine learning|statistic|daten|données|datos|analista',
  Education:
    'teacher|tutor|instructor|lecturer|professor|educat|teaching|school|lehrer|lehrkraft|dozent|enseignant|formateur|profesor|maestr[oa]|trainer',
  Energy: 'energy|solar|wind|oil|gas|power plant|utilities|renewable|energie|énergie|energía|photovolt',
  Engineering:
    'engineer|engineering|ingenieur|ingénieur|ingeniero|mechanical|electrical|civil|hardware|firmware|techniker|technicien',
  'Finance & Accounting':
    'financ|underwrit|actuar|accountant|accounting|controller|controlling|audit|tax|treasury|bookkeep|payroll|buchhalt|steuer|comptab|contable|contador|fiscal|actuar|investment|credit|billing',
  Healthcare:
    'nurse|nursing|cna|lpn|physician|doctor|medical|clinical|health|healthcare|therapist|pharmac|dental|patient|caregiver|care assistant|surgeon|radiolog|pflege|arzt|ärztin|krankenpfleg|infirmi|médecin|enfermer|médico|psycholog',
  Hospitality:
    'hospitality|hotel|restaurant|chef|cook|barista|bartender|waiter|waitress|housekeep|kitchen|catering|koch|köchin|service ?kraft|serveur|cuisinier|camarero|cocinero|front desk',
  'Human Resources':
    'human resources|hr|recruit|talent|people partner|people operations|personal(?:referent|sachbearbeiter)|ressources humaines|recursos humanos|payroll',
  Legal:
    'legal|lawyer|attorney|counsel|paralegal|solicitor|jurist|rechtsanwalt|avocat|juriste|abogad[oa]|compliance|notary',
  Logistics:
    'logistic|warehouse|supply chain|procurement|purchasing|inventory|fulfil|shipping|dispatcher|lager|einkauf|logistique|logística|almacén|buyer',
  'Management & Leadership':
    'manager|management|director|head of|chief|vp|vice president|lead|leiter|leitung|geschäftsführ|directeur|responsable|gerente|jefe|president',
  Manufacturing:
    'manufactur|production|assembly|machine operator|operator|quality control|quality assurance(?! engineer)|plant|fertigung|produktion|fabrication|producción|cnc',
  Marketing:
    'marketing|seo|sem|growth|brand(?![a-z])|branding|social media|campaign|public relations|pr manager|communications manager|mercadotecnia|comunicación',
  Sales:
    'sales(?!force)|revenue operations|revenue enablement|sales enablement|partner development|account executive|account manager|business development|sdr|bdr|vertrieb|verkäufer|verkauf|außendienst|commercial|vendeur|ventas|vendedor|retail|cashier|store',
  'Science & Research':
    'scientist|research|researcher|laborator|lab |chemist|biolog|physicist|r&d|wissenschaft|forsch|chercheur|investigador|científic',
  'Security & Safety':
    'security|safety|cyber|guard|firefighter|police|soc analyst|penetration|sicherheit|sécurité|seguridad|hse|ehs',
  'Social Services':
    'social work|social worker|case manager|counselor|counsellor|community (?:worker|support worker|care|health worker|outreach worker)|youth|childcare|sozialarbeit|sozialpädagog|erzieher|éducateur|trabajador social|support worker',
  Software:
    'software|developer|programmer|frontend|front-end|backend|back-end|full[- ]?stack|devops|sre|mobile|ios|android|web developer|entwickler|développeur|desarrollador|programador|qa engineer|quality assurance engineer|test automation',
  Technology:
    'it[- ](?:support|specialist|admin\\w*|manager|engineer|security|consultant|project|services?|systems?|operations|analyst|technician|spezialist|architekt|leiter)|technology|(?:solutions?|software|cloud|platform|enterprise|security|systems?|technical|network|aws|azure|salesforce|integration) architect|service delivery|systems administrator|sysadmin|network|cloud|infrastructure|technical|tech|informatik|informatique|informática|database|platform',
  Trades:
    'electrician|plumber|carpenter|welder|mechanic|technician|hvac|painter|mason|handwerk|elektriker|installateur|schreiner|mécanicien|électricien|fontanero|electricista|maintenance',
  Transportation:
    'driver|truck|cdl|delivery (?:driver|rider|associate)|courier|pilot|transport|fleet|bus|railway|fahrer|chauffeur|conductor|repartidor|aviation',
};

/** Split alternatives at the top level only ("a|b(?:c|d)" → ["a", "b(?:c|d)"]). */
function splitTop(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of src) {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (ch === '|' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const TITLE_RE = new Map<string, RegExp>();
const groups: string[] = [];
const NAMES = Object.keys(RULES);
for (const [t, stems] of Object.entries(RULES)) {
  // Stems are prefixes ("financ"), except short ones, which must be whole words ("hr", "ux", "tax").
  const alts = splitTop(stems)
    .map((a) => (a.length <= 4 ? `${a}(?![\\p{L}])` : a))
    .join('|');
  TITLE_RE.set(t, new RegExp(`(?:^|[^\\p{L}])(?:${alts})`, 'iu'));
  groups.push(`(${alts})`);
}
// One pass over the description for all taxonomies: the capture group that matched names it.
const TEXT_RE = new RegExp(`(?<![\\p{L}])(?:${groups.join('|')})`, 'giu');

/** Taxonomies of a posting: every one its title names; otherwise the description's clear leaders. */
export function taxonomies(title: string, text: string, limit = 3): string[] {
  const fromTitle: string[] = [];
  for (const [t, re] of TITLE_RE) if (re.test(title)) fromTitle.push(t);
  if (fromTitle.length) {
    // "Management & Leadership" says how senior, not what field: dropped when fields fill the list.
    return fromTitle
      .filter((t, _i, all) => all.length <= limit || t !== 'Management & Leadership')
      .slice(0, limit);
  }
  const head = text.length > 6000 ? text.slice(0, 6000) : text;
  if (!head) return [];
  const counts = new Array<number>(NAMES.length).fill(0);
  for (const m of head.matchAll(TEXT_RE)) {
    for (let g = 1; g < m.length; g++) {
      if (m[g] !== undefined) {
        counts[g - 1]++;
        break;
      }
    }
  }
  const scores = NAMES.map((t, i) => [t, counts[i]] as [string, number]).filter(([, n]) => n > 0);
  scores.sort((a, b) => b[1] - a[1]);
  // At least three mentions, and within half of the leader: a passing mention is no category.
  const top = scores[0]?.[1] ?? 0;
  return scores
    .filter(([, n]) => n >= 3 && n * 2 >= top)
    .slice(0, limit)
    .map(([t]) => t);
}
