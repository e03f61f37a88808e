// What of a request may reach a log: the URL with every api_key value removed, found by parsing the
// query exactly as the router does (so `api%5Fkey` and `%61pi_key` are caught), anything shaped like a
// key removed wherever it appears, and the whole cut to a bounded length.
import { API_KEY_PARAM } from './params/registry.ts';

const LOG_URL_MAX = 512;
const REDACTED = '[REDACTED]';
// A key is a prefix plus 48 hex characters; 40+ hex in a row is redacted whatever surrounds it.
const KEY_SHAPED = /[0-9a-f]{40,}/i;
const KEY_SHAPED_ALL = /[0-9a-f]{40,}/gi;

/** The name of one `name=value` query part, decoded as URLSearchParams decodes it. */
function partName(part: string): string {
  for (const [name] of new URLSearchParams(part)) return name;
  return '';
}

/** The request URL fit for a log line: api_key values and key-shaped tokens redacted, then truncated. */
export function redactUrl(url: string, max = LOG_URL_MAX): string {
  const q = url.indexOf('?');
  let out = url;
  if (q >= 0) {
    const parts = url
      .slice(q + 1)
      .split('&')
      .map((part) => {
        if (partName(part) !== API_KEY_PARAM) return part;
        const eq = part.indexOf('=');
        return `${eq >= 0 ? part.slice(0, eq) : part}=${REDACTED}`;
      });
    out = `${url.slice(0, q)}?${parts.join('&')}`;
  }
  // Percent-encoded hex digits would dodge the pattern; decode what can be decoded before matching.
  out = out.replace(KEY_SHAPED_ALL, REDACTED);
  if (/%[0-9a-f]{2}/i.test(out) && KEY_SHAPED.test(safeDecode(out))) out = redactEncoded(out);
  return out.length > max ? `${out.slice(0, max)}…(${out.length} chars)` : out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
  }
}

/** A URL hiding a key-shaped token behind percent-encoding: keep only the path. */
function redactEncoded(url: string): string {
  const q = url.indexOf('?');
  const path = q >= 0 ? url.slice(0, q) : url;
  return KEY_SHAPED.test(safeDecode(path)) ? REDACTED : `${path}?${REDACTED}`;
}
