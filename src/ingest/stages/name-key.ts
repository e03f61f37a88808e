// The employer's name as postings are matched on: to resolve a profile, and to tell copies of one
// employer's posting apart when it has none.
const LEGAL_SUFFIX =
  /\b(inc|incorporated|llc|ltd|limited|gmbh|ag|sa|sas|bv|nv|plc|corp|corporation|co|company|oy|ab|as|srl|spa|pty)\b\.?/g;

/** Normalised employer name for resolution: case, accents, punctuation and legal suffixes folded. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(LEGAL_SUFFIX, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
