// Work arrangement stated in a description's ordinary sentences ("This role is hybrid, with three days
// a week in our Munich office"), in the languages the index holds: English, German, French, Spanish,
// Dutch, Italian and Portuguese. Read only when the source and the location strings say nothing.

const N = String.raw`(?<![\p{L}\d])(?:\d(?:\s*[-–]\s*\d)?|one|two|three|four|zwei|drei|vier|deux|trois|quatre|dos|tres|cuatro|twee|drie|vier|due|tre|quattro|dois|tr[êe]s|quatro)`;
const WEEK = String.raw`(?:a|per|each|every|pro|die|in der|par|por|a la|per|alla|a|por|per|in de)\s+(?:week|woche|semaine|semana|settimana)`;

const HYBRID_PHRASES = [
  // English
  String.raw`(?:role|position|job|team|opportunity) is (?:a )?hybrid`,
  String.raw`hybrid[- ](?:work|working|model|role|position|setup|set-up|schedule|arrangement|policy|environment|basis|approach|way of working|opportunity|job|pattern)`,
  String.raw`(?:work|working|operate|operating) (?:on a |in a )?hybrid(?:ly)?\b`,
  String.raw`\bhybrid\s*(?:[(:–—-]\s*)?${N}\s*(?:days?|x)`,
  String.raw`${N}\s*(?:days?|x)\s*(?:${WEEK}\s*)?(?:in|at|from|on[- ]site at|onsite at)\s+(?:the|our|your)?\s*(?:[\p{L}.'-]+\s+){0,3}(?:office|offices|site|hub|studio|campus)`,
  String.raw`(?:in|at|from) (?:the|our) (?:[\p{L}.'-]+\s+){0,3}(?:office|hub|studio) (?:for )?${N}\s*days?\s*${WEEK}`,
  String.raw`${N} (?:office|in-office|on-site|onsite) days`,
  String.raw`split (?:your|their|our) (?:time|week) between (?:home|remote work|the office|our office)`,
  String.raw`(?:mix|combination|blend) of (?:remote|home|working from home|home working) and (?:office|on-site|onsite|in-office)`,
  String.raw`partly (?:remote|from home)|partially remote|part(?:ly)? remote`,
  // German
  String.raw`hybride[snr]? (?:arbeit|arbeiten|arbeitsmodell|modell|zusammenarbeit)`,
  String.raw`${N} tage?\s*(?:${WEEK}\s*)?(?:im|in unserem|in unserer|vor ort im) (?:[\p{L}-]+\s+){0,2}(?:büro|office)`,
  String.raw`${N} tage?\s*(?:${WEEK}\s*)?(?:mobil|im home ?office|remote|von zu hause)`,
  String.raw`teilweise (?:im )?(?:home ?office|remote|mobil)`,
  // French
  String.raw`(?:travail|mode|modèle|organisation|poste) (?:en )?hybride`,
  String.raw`télétravail partiel|télétravail (?:possible )?(?:jusqu'à )?${N} jours?`,
  String.raw`${N} jours? (?:de télétravail|(?:${WEEK}\s*)?(?:au bureau|sur site|en présentiel|en télétravail))`,
  // Spanish
  String.raw`(?:modelo|trabajo|modalidad|esquema|formato|régimen) h[íi]brid[oa]`,
  String.raw`teletrabajo parcial`,
  String.raw`${N} d[íi]as (?:${WEEK}\s*)?(?:en (?:la|nuestra|nuestras) oficinas?|presenciales|de teletrabajo|en remoto|de oficina)`,
  // Dutch
  String.raw`hybride? (?:werken|werkmodel|werkvorm|functie)`,
  String.raw`${N} dagen (?:${WEEK}\s*)?(?:op (?:ons |het )?kantoor|thuis|vanuit huis)`,
  String.raw`deels thuis(?:werken)?|gedeeltelijk thuis`,
  // Italian, Portuguese
  String.raw`(?:lavoro|modalità|modello) ibrid[oa]`,
  String.raw`${N} giorni (?:${WEEK}\s*)?in (?:ufficio|sede)`,
  String.raw`(?:trabalho|regime|modelo) h[íi]brido`,
  String.raw`${N} dias (?:por semana )?(?:no escrit[óo]rio|presenciais)`,
];

const REMOTE_PHRASES = [
  // English
  String.raw`(?:fully|100 ?%|completely|entirely|totally|full[- ]time) remote`,
  String.raw`remote[- ](?:first|only)`,
  String.raw`work (?:remotely )?from anywhere`,
  String.raw`(?:role|position|job|opportunity) is (?:a )?(?:fully |100% )?remote`,
  String.raw`(?:this|the|a) (?:fully )?remote(?:[- ]based)? (?:position|role|job|opportunity)`,
  String.raw`(?:can|will|may) be (?:done|performed|carried out|based) (?:fully |entirely )?remotely`,
  String.raw`work (?:fully|entirely|100% )\s*(?:remotely|from home)`,
  String.raw`home[- ]based (?:role|position|job)`,
  // German
  String.raw`(?:vollständig|komplett|ausschließlich|zu 100 ?%|100 ?%) (?:remote|mobil|im home ?office|von zu hause)`,
  String.raw`(?:stelle|position|rolle) ist (?:komplett |vollständig )?remote`,
  String.raw`remote[- ]stelle`,
  // French
  String.raw`(?:100 ?%|entièrement|totalement) (?:en )?(?:télétravail|à distance|remote)`,
  String.raw`télétravail (?:complet|total|à 100 ?%)`,
  String.raw`full[- ]remote`,
  String.raw`poste (?:en|à) (?:télétravail|distance)`,
  // Spanish
  String.raw`(?:100 ?%|totalmente|completamente) (?:en )?(?:remoto|teletrabajo|a distancia)`,
  String.raw`teletrabajo (?:100|total|completo)`,
  String.raw`(?:puesto|posición|trabajo) (?:en )?remoto`,
  // Dutch
  String.raw`volledig (?:remote|thuis(?:werken)?|op afstand)`,
  String.raw`100 ?% (?:remote|thuiswerken|vanuit huis)`,
  // Italian, Portuguese
  String.raw`(?:completamente|totalmente|100 ?%) (?:da )?remoto`,
  String.raw`(?:trabalho|posição|vaga) (?:100 ?% )?remot[oa]`,
];

// A remote phrase that is denied ("This is not a remote role", "no remote work", "kein Homeoffice").
const NOT_REMOTE = [
  String.raw`(?:is|are) not (?:a |an )?(?:fully )?remote`,
  String.raw`\bno (?:fully )?remote\b`,
  String.raw`not (?:open to|eligible for) remote`,
  String.raw`remote (?:work|working) is not (?:possible|available|an option)`,
  String.raw`kein(?:e)? (?:remote|home ?office|mobiles arbeiten)`,
  String.raw`pas de télétravail|pas en télétravail`,
  String.raw`no es (?:un puesto )?remoto|sin teletrabajo`,
  String.raw`geen (?:remote|thuiswerk)`,
];

// Matched against the lower-cased text: faster than case-insensitive matching of so many alternatives.
const re = (parts: string[]) => new RegExp(`(?:${parts.join('|')})`, 'u');
const HYBRID = re(HYBRID_PHRASES);
const REMOTE = re(REMOTE_PHRASES);
const DENIED = re(NOT_REMOTE);

/**
 * The arrangement a description states, or undefined when it says nothing. A hybrid statement wins over
 * a remote one ("remote-friendly, two days a week in the office" is hybrid); a denied remote phrase is
 * not read as remote.
 */
export function arrangementFromText(text: string): 'Hybrid' | 'Remote' | undefined {
  if (!text) return undefined;
  const head = (text.length > 20000 ? text.slice(0, 20000) : text).toLowerCase();
  if (HYBRID.test(head)) return 'Hybrid';
  if (REMOTE.test(head) && !DENIED.test(head)) return 'Remote';
  return undefined;
}
