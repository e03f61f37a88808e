// A tiny parameterised SQL accumulator: values never enter the SQL text.
export class Sql {
  readonly params: unknown[] = [];
  readonly where: string[] = [];

  /** Adds a value and returns its placeholder. */
  v(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  and(cond: string): this {
    this.where.push(cond);
    return this;
  }

  whereSql(): string {
    return this.where.length ? this.where.join(' AND ') : 'true';
  }
}

/** Escapes LIKE metacharacters so user text matches literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}
