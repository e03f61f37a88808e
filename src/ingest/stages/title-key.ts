// The title as copies are matched on: what agencies and boards add to or reorder in a title is left out,
// so "Sr. Data Engineer - Berlin (m/w/d)" and "Data Engineer (Senior)" give the same key.

// Gender tags and the like, removed before splitting into words ("m/w/d" would split into letters).
const TAGS =
  /\(?\b(?:m\s*\/\s*w\s*\/\s*d|w\s*\/\s*m\s*\/\s*d|m\s*\/\s*f\s*\/\s*d|f\s*\/\s*m\s*\/\s*d|m\s*\/\s*f\s*\/\s*x|d\s*\/\s*f\s*\/\s*m|m\s*\/\s*w|h\s*\/\s*f|f\s*\/\s*h|all genders|alle geschlechter)\b\)?/giu;

// Words that say nothing about the job itself: urgency, contract wording, place and arrangement words.
const NOISE = new Set([
  'urgent',
  'urgently',
  'immediate',
  'immediately',
  'start',
  'asap',
  'permanent',
  'perm',
  'job',
  'jobs',
  'vacancy',
  'hiring',
  'now',
  'new',
  'opportunity',
  'position',
  'role',
  'in',
  'at',
  'the',
  'for',
  'of',
  'and',
  'remote',
  'hybrid',
  'onsite',
  'on',
  'site',
  'office',
  'based',
]);

const ABBREVIATIONS: Record<string, string> = Object.setPrototypeOf(
  {
    sr: 'senior',
    snr: 'senior',
    jr: 'junior',
    jnr: 'junior',
    mgr: 'manager',
    engr: 'engineer',
    asst: 'assistant',
    assoc: 'associate',
    admin: 'administrator',
    ops: 'operations',
    vp: 'vice president',
    svp: 'senior vice president',
  },
  null,
);

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The set of the title's meaningful words, sorted: abbreviations spelled out, gender tags, urgency and
 * contract words, arrangement words and the names of the posting's own places (`places`, folded) left out.
 */
export function titleKey(title: string, places: readonly string[] = []): string {
  const placeWords = new Set(places.flatMap((p) => fold(p).split(/[^\p{L}\p{N}]+/u)).filter(Boolean));
  const words = fold(title.replace(TAGS, ' '))
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter(Boolean)
    .flatMap((w) => (ABBREVIATIONS[w] ?? w).split(' '))
    .filter((w) => !NOISE.has(w) && !placeWords.has(w));
  // A title made only of such words keeps them all rather than matching every other one.
  const kept = words.length
    ? words
    : fold(title)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
  return [...new Set(kept)].sort().join(' ');
}
