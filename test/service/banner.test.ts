// The start-up banner: on a terminal the new key itself; elsewhere, and on later starts, a curl with $KEY
// after the command that makes one, never a masked key or advice about a key not shown.
import { describe, expect, it } from 'vitest';
import { bannerLines, clientBase, MAKE_KEY, newKeyLines } from '../../src/service/banner.ts';

const base = 'http://127.0.0.1:8080';
const key = `jps_${'a'.repeat(48)}`;

describe('start-up banner', () => {
  it('on a terminal shows a new key once, in the curl', () => {
    expect(newKeyLines(key, true).join('\n')).toMatch(/API key jps_a{48}\n\(shown once/);
    const lines = bannerLines({ version: '1.0.0', base, workers: 2, key, terminal: true });
    expect(lines).toContain(`  curl -H "Authorization: Bearer ${key}" "${base}/v1/jobs?limit=2"`);
    expect(lines).not.toContain(`  ${MAKE_KEY}`);
    expect(lines[1]).toBe(`Job Postings Search Service 1.0.0 listening on ${base} (2 workers)`);
  });

  it('off a terminal, or without a new key, gives a curl that works as pasted', () => {
    for (const [k, terminal] of [
      [key, false],
      [undefined, true],
      [undefined, false],
    ] as const) {
      const text = bannerLines({ version: '1.0.0', base, workers: 1, key: k, terminal }).join('\n');
      expect(text).toContain(
        `\n  ${MAKE_KEY}\n  curl -H "Authorization: Bearer $KEY" "${base}/v1/jobs?limit=2"\n`,
      );
      expect(text).not.toContain('jps_');
      expect(text).not.toMatch(/shown once|keep it/);
    }
    expect(newKeyLines(key, false).join('\n')).not.toMatch(/jps_|shown once|keep it/);
    expect(newKeyLines(undefined, false)).toEqual([]);
  });

  it('addresses a service bound to every interface through the loopback', () => {
    expect(clientBase('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080');
    expect(clientBase('::1', 8080)).toBe('http://[::1]:8080');
    expect(clientBase('10.0.0.5', 80)).toBe('http://10.0.0.5:80');
  });
});
