// The `stats` table on stderr: columns aligned whatever the length of a source's name, and a total row.
import { describe, expect, it } from 'vitest';
import { coverageTable } from '../../src/cli/stats.ts';
import { COVERAGE_KEYS } from '../../src/db/stats.ts';

const row = (source: string, n: number, pct: number) => ({
  source,
  n,
  ...Object.fromEntries(COVERAGE_KEYS.map((k) => [k, pct])),
});

describe('coverageTable', () => {
  it('aligns every column on long source names and ends with the total', () => {
    const text = coverageTable(
      [
        row('greenhouse', 1200, 99.5),
        row('a-very-long-aggregator-source-name', 7, 100),
        row('x', 12_345, 3.1),
      ],
      row('(all)', 13_552, 42.3),
    );
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    // Every line is as long as the header, and each column ends where the header's does.
    for (const l of lines) expect(l.length).toBe(lines[0].length);
    const ends = (l: string) => [...l.matchAll(/\S+/g)].map((m) => m.index! + m[0].length);
    const headerEnds = ends(lines[0]).slice(1);
    for (const l of [lines[1], lines[2], lines[3], lines[5]]) expect(ends(l).slice(1)).toEqual(headerEnds);
    expect(lines[2].startsWith('a-very-long-aggregator-source-name ')).toBe(true);
    expect(lines[4]).toMatch(/^-+( +-+)+$/);
    expect(lines[5]).toMatch(/^\(all\) +13552 +42\.3/);
  });
});
