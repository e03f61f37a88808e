// Display titles: whitespace folded; an ALL-CAPS title de-capitalised, keeping acronyms and small words.

// Kept upper case when the title is de-capitalised: they are acronyms, not shouting.
const ACRONYMS = new Set(
  (
    'AI ML IT HR QA UX UI VP SVP EVP CEO CTO CFO COO CIO CISO CMO CPO SRE SDR BDR AWS GCP SAP CRM ERP SEO SEM PR ' +
    'R&D EMEA APAC US USA UK EU NYC LA SF DC PHP SQL API iOS B2B B2C SAAS SaaS CNC HVAC CDL RN LPN CNA EHS HSE ' +
    'II III IV PMO BI ETL GIS DBA MBA PHD CAD BIM PLC NLP LLM FP&A AR AP KYC AML GTM ABAP SOC NOC IAM'
  )
    .split(' ')
    .map((s) => s.toUpperCase()),
);
const SMALL = new Set(
  'a an and as at but by for in of on or the to with via de des du la le les et und der die das für von mit y del el en para con'.split(
    ' ',
  ),
);
// Acronyms with a conventional mixed case.
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const MIXED: Record<string, string> = Object.setPrototypeOf(
  {
    DEVOPS: 'DevOps',
    IOS: 'iOS',
    SAAS: 'SaaS',
    PHD: 'PhD',
    MLOPS: 'MLOps',
  },
  null,
);
// Gender markers: German "(m/w/d)" is written in lower case, French "H/F" in capitals.
const GENDER_RE = /^\(?[mwdx](?:\/[mwdx*]){1,3}\)?$/i;
const GENDER_FR_RE = /^\(?[hf]\/[hf]\)?$/i;

function capitalise(word: string): string {
  return word.replace(/^(\P{L}*)(\p{L})/u, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

/** Title for display: whitespace folded; ALL-CAPS titles de-capitalised sensibly. */
export function displayTitle(title: string): string {
  const t = String(title ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const letters = t.replace(/[^\p{L}]/gu, '');
  // Only a title that is all capitals (and long enough to be shouting, not "QA" or "CEO").
  if (letters.length < 5 || letters !== letters.toUpperCase() || letters === letters.toLowerCase()) return t;
  let first = true;
  return t
    .split(' ')
    .map((word) => {
      const out = titleWord(word, first);
      if (/\p{L}/u.test(word)) first = false;
      return out;
    })
    .join(' ');
}

function titleWord(word: string, first: boolean): string {
  if (GENDER_RE.test(word)) return word.toLowerCase();
  if (GENDER_FR_RE.test(word)) return word.toUpperCase();
  const core = word.replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&+#]+$/gu, '');
  if (MIXED[core.toUpperCase()]) return word.replace(core, MIXED[core.toUpperCase()]);
  if (ACRONYMS.has(core.toUpperCase())) return word;
  // Hyphen and slash compounds: each part on its own ("FULL-STACK" → "Full-Stack", "DEVOPS/SRE" → "DevOps/SRE").
  return word
    .split(/([-/])/)
    .map((part, i) => {
      if (part === '-' || part === '/') return part;
      const c = part.replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&+#]+$/gu, '');
      if (MIXED[c.toUpperCase()]) return part.replace(c, MIXED[c.toUpperCase()]);
      if (ACRONYMS.has(c.toUpperCase())) return part;
      const lower = part.toLowerCase();
      if (!first && i === 0 && SMALL.has(c.toLowerCase())) return lower;
      return capitalise(lower);
    })
    .join('');
}
