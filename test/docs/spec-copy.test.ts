// docs/SPEC.md is the contract the repository carries. Where the shared copy it comes from sits beside
// the checkout (the development machines and CI), the two must be identical; elsewhere this test says so.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const local = new URL('../../docs/SPEC.md', import.meta.url);
const shared = new URL('../../../shared/SPEC.md', import.meta.url);
const hasShared = fs.existsSync(shared);
if (!hasShared)
  console.warn('skipping the comparison with ../shared/SPEC.md: no shared copy beside this checkout');

describe('docs/SPEC.md', () => {
  it('is present in the repository', () => {
    expect(fs.readFileSync(local, 'utf8')).toMatch(/^# Job Postings Search Service/);
  });
  it.skipIf(!hasShared)('is identical to the shared specification beside the checkout', () => {
    expect(fs.readFileSync(local, 'utf8')).toBe(fs.readFileSync(shared, 'utf8'));
  });
});
