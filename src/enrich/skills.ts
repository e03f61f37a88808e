// Skills: lower-case single tokens from the dictionary in dict/skills.json, found in title and text.
// normaliseSkill is shared with the HTTP layer so that a filter value and a stored skill agree.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const data = require('./dict/skills.json') as {
  skills: Record<string, string[]>;
  caseSensitive: Record<string, string[]>;
};

/** Lower-case spelling → stored token, for normaliseSkill and for matching lower-cased text. */
const ALIAS = new Map<string, string>();
/** Exact-case spelling → token, for skills that are also ordinary words ("Go", "R", "Rust"). */
const EXACT = new Map<string, string>();
/** First words of multi-word spellings: phrases are only tried from these, which keeps matching linear. */
const PHRASE_START = new Set<string>();
let maxWords = 1;
const notePhrase = (f: string) => {
  const words = f.split(' ');
  if (words.length > 1) PHRASE_START.add(words[0]);
  maxWords = Math.max(maxWords, words.length);
};
for (const [token, aliases] of Object.entries(data.skills)) {
  // A token that is also an ordinary word ("go") is only matched in its exact-case forms.
  if (!data.caseSensitive[token]) ALIAS.set(token, token);
  for (const a of aliases) {
    ALIAS.set(a, token);
    notePhrase(a);
  }
}
for (const [token, forms] of Object.entries(data.caseSensitive)) {
  for (const f of forms) {
    EXACT.set(f, token);
    notePhrase(f);
  }
}
// Only for normaliseSkill: a lower-case filter value such as "golang" or "rust" names the skill.
const NORMALISE = new Map(ALIAS);
for (const [token, forms] of Object.entries(data.caseSensitive)) {
  NORMALISE.set(token, token);
  for (const f of forms) NORMALISE.set(f.toLowerCase(), token);
}

/**
 * The stored form of a skill: aliases translated (c++ → cpp, c# → csharp, .net → dotnet, node.js → node,
 * golang → go), lower case, multi-word skills without spaces ("Machine Learning" → machinelearning).
 */
export function normaliseSkill(s: string): string {
  const t = s.trim().toLowerCase().replace(/\s+/g, ' ');
  return NORMALISE.get(t) ?? t.replace(/\s+/g, '');
}

// Tokens keep the characters skills are spelled with (c++, c#, node.js, ci/cd, pl/sql, objective-c).
const TOKEN_RE = /\.net\b|[\p{L}\p{N}](?:[\p{L}\p{N}+#./'-]*[\p{L}\p{N}+#])?/giu;
const SPLIT_RE = /[./-]/;

// --- What of a description speaks of the role: skills are read there only ---

/** Headings of sections about the employer, its benefits or its hiring process, not about the role. */
const OTHER_SECTION_RE =
  /^(?:about (?!(?:the |this )?(?:role|job|position|you|team|opportunity|work)\b)[\p{L}\p{N}.&' -]+|about us|who we are|company overview|our company|our story|our mission|the company|what you'?ll find at .*|why (?:join|work at|you'?ll love) .*|benefits?|perks.*|what we offer|our benefits|(?:our )?(?:hiring|interview|recruitment|application) process.*|equal (?:employment )?opportunity.*|eeo.*)\s*[:?!]?$/iu;
/** A heading: a short line without a full stop. */
const HEADING_RE = /^[^.!]{2,60}[:?!]?$/u;
/** Sentences of legal and recruiting boilerplate (equal opportunity, accommodation, recruitment fraud). */
const BOILERPLATE_RE =
  /equal (?:employment )?opportunit|discriminat|regardless of|protected (?:veteran|characteristic)|accommodation|recruitment fraud|fraudulent|recruiting (?:team|partner)|e-verify|background check|privacy (?:notice|policy)|our interviews|interview (?:process|stage)|hiring manager interview/i;

/**
 * The part of a description that speaks of the role: sections about the employer ("About Ramp",
 * "Company Overview"), its benefits and its hiring process are left out, and so are paragraphs that
 * present the employer ("Amplitude is the leading…", "At Ramp, we…") and legal boilerplate. A company's
 * blurb names its products and markets ("American Express", "procurement", "AI"), not the role's skills.
 */
export function roleText(text: string, employer?: string): string {
  const name = employer
    ?.trim()
    .toLowerCase()
    .replace(/[.,]?\s*(?:inc|ltd|llc|gmbh|corp)\.?$/i, '');
  const out: string[] = [];
  let skipping = false;
  for (const line of text.split('\n')) {
    const item = /^\s*[-•*·]/.test(line);
    const t = line.trim().replace(/^[-•*·]\s*/, '');
    if (!t) continue;
    // A list item is never a heading, however short.
    if (!item && HEADING_RE.test(t)) {
      // "About Ramp", "AI Innovation at Dataminr", "Why Join Sully.ai?": about the employer.
      skipping = OTHER_SECTION_RE.test(t) || (!!name && name.length > 1 && t.toLowerCase().includes(name));
      if (skipping) continue;
    }
    if (skipping) continue;
    const lower = t.toLowerCase();
    if (
      name &&
      name.length > 1 &&
      (lower.startsWith(`${name} `) ||
        lower.startsWith(`${name}'s`) ||
        lower.startsWith(`${name}’s`) ||
        lower.startsWith(`at ${name},`) ||
        lower.startsWith(`at ${name} `))
    )
      continue;
    out.push(
      t
        .split(/(?<=[.!?])\s+/)
        .filter((sentence) => !BOILERPLATE_RE.test(sentence))
        .join(' '),
    );
  }
  return out.join('\n');
}

/** Spellings that look like skills and are not: "P&C", "R&D" (no C, no R), "Go-To-Market", "PHP 550/hour" (pesos). */
function unskill(text: string): string {
  return text
    .replace(/\b[A-Za-z]{1,4}&[A-Za-z]{1,4}\b/g, ' ')
    .replace(/\bgo[- ]to[- ]market\b/gi, 'GTM')
    .replace(/\b(?:PHP|R|C)\s?(?=\d)/g, ' ');
}

/** Words that spell the employer ("MongoDB", "GitHub", "Sully.ai"): the employer is not a skill of its jobs. */
export function employerSkills(employer: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!employer) return out;
  const whole = ALIAS.get(employer.trim().toLowerCase()) ?? EXACT.get(employer.trim());
  if (whole) out.add(whole);
  for (const w of employer.split(/[\s.,]+/)) {
    const hit = ALIAS.get(w.toLowerCase());
    if (hit && w.length > 2) out.add(hit);
  }
  return out;
}

/**
 * Skills mentioned in the texts, in order of first mention, at most `limit`. A skill that is also an
 * ordinary word is not read inside a name ("American Express") or before a year ("Spring 2027").
 */
export function extractSkills(
  texts: readonly string[],
  limit = 40,
  exclude: ReadonlySet<string> = new Set(),
): string[] {
  const found = new Set<string>();
  const add = (hit: string) => {
    if (!exclude.has(hit)) found.add(hit);
  };
  for (let x = 0; x < texts.length; x++) {
    const raw = texts[x];
    if (!raw) continue;
    const text = unskill(raw);
    // The first text is the title, Title-Cased throughout ("Senior Go Engineer"): no names are told there.
    const prose = x > 0;
    const matches = [...text.matchAll(TOKEN_RE)];
    const orig = matches.map((m) => m[0]);
    const lower = orig.map((t) => t.toLowerCase());
    /** An exact-case word skill that is part of a name or a date: "American Express", "Spring 2027". */
    const inName = (i: number) => {
      if (
        prose &&
        i > 0 &&
        /^[A-Z][a-z]/.test(orig[i - 1]) &&
        !ALIAS.has(lower[i - 1]) &&
        !EXACT.has(orig[i - 1])
      ) {
        const gap = text.slice(matches[i - 1].index + orig[i - 1].length, matches[i].index);
        if (gap === ' ') return true;
      }
      return i + 1 < orig.length && /^(?:19|20)\d\d$/.test(orig[i + 1]);
    };
    for (let i = 0; i < orig.length && found.size < limit; ) {
      let matched = 0;
      // Longest phrase first, so "react native" is one skill and "google cloud" is gcp.
      const phrase = PHRASE_START.has(lower[i]) || PHRASE_START.has(orig[i]);
      for (let n = phrase ? Math.min(maxWords, orig.length - i) : 1; n >= 1 && !matched; n--) {
        const lk = n === 1 ? lower[i] : lower.slice(i, i + n).join(' ');
        const ok = n === 1 ? orig[i] : orig.slice(i, i + n).join(' ');
        const exact = ALIAS.get(lk) === undefined;
        const hit = ALIAS.get(lk) ?? EXACT.get(ok);
        if (hit && !(exact && n === 1 && inName(i))) {
          add(hit);
          matched = n;
        } else if (hit) matched = n;
      }
      // A web address or a dotted name ("Sully.ai", "mongodb.com") is no list of skills.
      if (
        !matched &&
        SPLIT_RE.test(lower[i]) &&
        !/^[\p{L}\p{N}-]+\.(?:ai|io|com|co|net|org|dev|app|de)$/u.test(lower[i])
      ) {
        // "python/java", "react-based": the parts may be skills.
        const partsL = lower[i].split(SPLIT_RE);
        const partsO = orig[i].split(SPLIT_RE);
        for (let k = 0; k < partsL.length; k++) {
          const hit = partsL[k].length > 1 ? (ALIAS.get(partsL[k]) ?? EXACT.get(partsO[k])) : undefined;
          if (hit) add(hit);
        }
      }
      i += matched || 1;
    }
  }
  return [...found].slice(0, limit);
}
