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

/** Skills mentioned in the texts, in order of first mention, at most `limit`. */
export function extractSkills(texts: readonly string[], limit = 40): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const orig = text.match(TOKEN_RE) ?? [];
    const lower = orig.map((t) => t.toLowerCase());
    for (let i = 0; i < orig.length && found.size < limit; ) {
      let matched = 0;
      // Longest phrase first, so "react native" is one skill and "google cloud" is gcp.
      const phrase = PHRASE_START.has(lower[i]) || PHRASE_START.has(orig[i]);
      for (let n = phrase ? Math.min(maxWords, orig.length - i) : 1; n >= 1 && !matched; n--) {
        const lk = n === 1 ? lower[i] : lower.slice(i, i + n).join(' ');
        const ok = n === 1 ? orig[i] : orig.slice(i, i + n).join(' ');
        const hit = ALIAS.get(lk) ?? EXACT.get(ok);
        if (hit) {
          found.add(hit);
          matched = n;
        }
      }
      if (!matched && SPLIT_RE.test(lower[i])) {
        // "python/java", "react-based": the parts may be skills.
        const partsL = lower[i].split(SPLIT_RE);
        const partsO = orig[i].split(SPLIT_RE);
        for (let k = 0; k < partsL.length; k++) {
          const hit = partsL[k].length > 1 ? (ALIAS.get(partsL[k]) ?? EXACT.get(partsO[k])) : undefined;
          if (hit) found.add(hit);
        }
      }
      i += matched || 1;
    }
  }
  return [...found].slice(0, limit);
}
