// Descriptions: sanitised HTML under a strict allow-list, and plain text derived from it.
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'ul',
    'ol',
    'li',
    'strong',
    'b',
    'em',
    'i',
    'u',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'div',
    'span',
    'sub',
    'sup',
    'dl',
    'dt',
    'dd',
  ],
  allowedAttributes: { a: ['href', 'title'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Script and style bodies are dropped with their tags, never kept as text.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'title',
    'svg',
    'math',
    'iframe',
    'object',
  ],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
};
OPTIONS.allowedAttributes = { a: ['href', 'title', 'rel'] };

/** Sanitised HTML. Idempotent: sanitising the output again gives the same string. */
export function sanitizeDescription(html: string): string {
  if (typeof html !== 'string' || !html) return '';
  // One pass can leave markup that a second parse nests differently ("<p><p></p></p>"): repeat until
  // stable, so that sanitising stored output never changes it. Almost always two passes.
  let out = sanitizeHtml(html, OPTIONS).trim();
  if (wellNested(out)) return out;
  for (let i = 0; i < 4; i++) {
    const again = sanitizeHtml(out, OPTIONS).trim();
    if (again === out) break;
    out = again;
  }
  return out;
}

const TAG_RE = /<(\/?)([a-z0-9]+)[^>]*>/g;
const VOID = new Set(['br', 'hr']);
// Elements a parser closes an open <p> for: nested inside a <p>, they re-nest on a second parse.
const CLOSES_P = new Set([
  'p',
  'div',
  'ul',
  'ol',
  'dl',
  'table',
  'blockquote',
  'pre',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/** Cheap check that sanitised output is already what a re-parse gives: tags balanced, no block in a <p>. */
function wellNested(html: string): boolean {
  const stack: string[] = [];
  for (const m of html.matchAll(TAG_RE)) {
    const name = m[2];
    if (VOID.has(name)) {
      if (name === 'hr' && stack.includes('p')) return false;
      continue;
    }
    if (m[1]) {
      if (stack.pop() !== name) return false;
    } else {
      if (CLOSES_P.has(name) && stack.includes('p')) return false;
      if ((name === 'li' || name === 'dt' || name === 'dd') && stack[stack.length - 1] === name) return false;
      stack.push(name);
    }
  }
  return stack.length === 0;
}

const BLOCK = /<\/(p|div|li|h[1-6]|tr|blockquote|pre|dt|dd|table|ul|ol)>|<br\s*\/?>|<hr\s*\/?>/gi;

const DROP_WITH_BODY =
  /<(script|style|textarea|noscript|title|svg|math|iframe|object|template)\b[\s\S]*?<\/\1\s*>/gi;
const TAG = /<\/?[a-z!][^>]*>/gi;

/**
 * Plain text of sanitised HTML: block ends become line breaks, entities decoded. Tags are removed with a
 * regular expression rather than a second parse: sanitised HTML escapes every "<" that is not a tag,
 * and this runs for every posting.
 */
export function htmlToText(safeHtml: string): string {
  const withBreaks = safeHtml.replace(BLOCK, (m) => `${m}\n`).replace(/<li\b[^>]*>/gi, '$&- ');
  const text = withBreaks.replace(DROP_WITH_BODY, ' ').replace(TAG, '');
  return decodeEntities(text)
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (m, e: string) => {
    const k = e.toLowerCase();
    if (k === 'amp') return '&';
    if (k === 'lt') return '<';
    if (k === 'gt') return '>';
    if (k === 'quot') return '"';
    if (k === 'apos') return "'";
    if (k === 'nbsp') return ' ';
    const code = k.startsWith('#x') ? Number.parseInt(k.slice(2), 16) : Number.parseInt(k.slice(1), 10);
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
  });
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML of plain text: blank-line separated paragraphs, line breaks kept, everything escaped. */
export function textToHtml(text: string): string {
  if (!text.trim()) return '';
  return text
    .trim()
    .split(/\n\s*\n/)
    .map(
      (para) =>
        `<p>${para
          .trim()
          .replace(/[&<>"']/g, (c) => ESCAPES[c])
          .replace(/\n/g, '<br />')}</p>`,
    )
    .join('');
}
