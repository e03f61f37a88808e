import fs from 'node:fs';
import path from 'node:path';
import { adapters } from '../../../src/ingest/adapters/index.ts';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/sources');
export const NOW = new Date('2026-06-01T12:00:00Z');

export function fixture(rel: string): string {
  return fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
}

export function parseFixture(format: string, rel: string, source: string, board: string, extra: object = {}) {
  return adapters[format].parse(fixture(rel), { source, board, now: NOW, ...extra });
}
