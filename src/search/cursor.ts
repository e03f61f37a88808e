// Opaque keyset cursors: base64url of {position, fingerprint}, signed with HMAC-SHA256.
// A tampered cursor, or one replayed on a different query, is a 400 on `cursor`.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ParamError } from '../errors.ts';

export interface CursorPosition {
  /** Sort key as PostgreSQL prints it (microsecond precision, UTC). */
  at: string;
  id: string;
}

/** A stable digest of the query a cursor belongs to. */
export function fingerprint(kind: string, query: Record<string, unknown>): string {
  const keys = Object.keys(query).sort();
  const canon = JSON.stringify([kind, keys.map((k) => [k, query[k]])]);
  return createHash('sha256').update(canon).digest('base64url').slice(0, 16);
}

export function encodeCursor(secret: string, fp: string, pos: CursorPosition): string {
  const body = Buffer.from(JSON.stringify([fp, pos.at, pos.id])).toString('base64url');
  const sig = createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
  return `${body}.${sig}`;
}

export function decodeCursor(secret: string, fp: string, cursor: string): CursorPosition {
  const bad = (why: string) => new ParamError('cursor', why);
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw bad('malformed cursor; pass next_cursor from the previous response unchanged');
  const body = cursor.slice(0, dot);
  const sig = Buffer.from(cursor.slice(dot + 1));
  const want = Buffer.from(createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22));
  if (sig.length !== want.length || !timingSafeEqual(sig, want)) {
    throw bad('malformed cursor; pass next_cursor from the previous response unchanged');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad('malformed cursor');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[1] !== 'string' ||
    typeof parsed[2] !== 'string'
  ) {
    throw bad('malformed cursor');
  }
  if (parsed[0] !== fp) throw bad('cursor belongs to a different query; send the same parameters as before');
  return { at: parsed[1], id: parsed[2] };
}
