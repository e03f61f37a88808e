export const TEXT_QUERY_MAX_LENGTH = 512;
export const TEXT_QUERY_MAX_TERMS = 32;

/** A text query the user must fix; the message is the hint shown to them. Positions are 1-based characters. */
export class TextQueryError extends Error {
  readonly position: number | undefined;

  constructor(message: string, position?: number) {
    super(message);
    this.name = 'TextQueryError';
    this.position = position;
  }
}

/** Splits into code points (so positions count characters, not UTF-16 units) and enforces the length cap. */
export function codePoints(input: string): string[] {
  const chars = Array.from(input);
  if (chars.length > TEXT_QUERY_MAX_LENGTH) {
    throw new TextQueryError(
      `Query is too long: ${chars.length} characters, the maximum is ${TEXT_QUERY_MAX_LENGTH}.`,
    );
  }
  return chars;
}

export function checkTermCount(count: number): void {
  if (count > TEXT_QUERY_MAX_TERMS) {
    throw new TextQueryError(`Query has too many terms: ${count}, the maximum is ${TEXT_QUERY_MAX_TERMS}.`);
  }
}

export const NO_SEARCHABLE_TERM =
  'Query has no searchable term: it contains only stop words (like "the", "and", "of") or punctuation.';

export function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /^\s$/u.test(ch);
}
