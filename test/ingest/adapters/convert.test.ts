import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertPayloadFiles } from '../../../src/ingest/adapters/index.ts';
import { FIXTURES, NOW } from './helpers.ts';

describe('convertPayloadFiles', () => {
  it('converts a directory; a file that is not the format is reported and the others still convert', async () => {
    const res = await convertPayloadFiles('greenhouse', [path.join(FIXTURES, 'greenhouse')], { now: NOW });
    expect(
      res.files.map((f) => [path.basename(f.file), f.board, f.postings, f.rejected.length, f.error]),
    ).toEqual([
      ['board.json', 'greenhouse/board', 3, 1, undefined],
      ['job-pay.json', 'greenhouse/job-pay', 1, 0, undefined],
      ['marketing.html', 'greenhouse/marketing', 0, 0, 'greenhouse: payload is an HTML/XML document'],
    ]);
    expect(res.records.map((r) => (r.kind === 'posting' ? r.id : r.kind))).toEqual([
      'greenhouse:4012345006',
      'greenhouse:4012345007',
      'greenhouse:4012345009',
      'greenhouse:4020000001',
    ]);
    expect(res.records.every((r) => r.kind === 'posting')).toBe(true);
  });

  it('uses the given board and company; jsonld needs the source slug', async () => {
    const file = path.join(FIXTURES, 'recruitee/offers.json');
    const res = await convertPayloadFiles('recruitee', [file], {
      board: 'recruitee/oakhaven',
      company: { name: 'Oakhaven Bakeries' },
      now: NOW,
    });
    expect(res.records[0]).toMatchObject({
      kind: 'posting',
      id: 'recruitee:1893001',
      board: 'recruitee/oakhaven',
      company: { name: 'Oakhaven Bakeries' },
    });
    await expect(convertPayloadFiles('jsonld', [file])).rejects.toThrow(/source slug/);
    await expect(convertPayloadFiles('monster', [file])).rejects.toThrow(/unknown format/);
  });

  it('reads a JSON-LD page with its source', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'convert-'));
    try {
      await fs.copyFile(path.join(FIXTURES, 'jsonld/careerboard-job.html'), path.join(dir, 'page.html'));
      await fs.writeFile(path.join(dir, 'notes.txt'), 'ignored');
      const res = await convertPayloadFiles('jsonld', [dir], { source: 'careerboard', now: NOW });
      expect(res.files).toHaveLength(1);
      expect(res.records.map((r) => (r.kind === 'posting' ? [r.id, r.board] : []))).toEqual([
        ['careerboard:CB-88213', 'careerboard/page'],
      ]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('takes the board token from an option: a Workday list without details loads offline', async () => {
    const file = path.join(FIXTURES, 'workday/jobs.json');
    const res = await convertPayloadFiles('workday', [file], { token: 'nordkap.wd3/Careers', now: NOW });
    expect(res.files.map((f) => [f.board, f.postings, f.rejected.length])).toEqual([
      ['workday/nordkap.wd3/Careers', 3, 0],
    ]);
    expect(res.records[0]).toMatchObject({
      id: 'workday:R-20417',
      url: 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Gothenburg-Sweden/Maintenance-Planner_R-20417',
      board: 'workday/nordkap.wd3/Careers',
    });
    // Without the option the file name is no Workday board: entries without a detail URL are rejected.
    const byName = await convertPayloadFiles('workday', [file], { now: NOW });
    expect(byName.files.map((f) => [f.board, f.postings, f.rejected.length])).toEqual([
      ['workday/jobs', 1, 2],
    ]);
    await expect(convertPayloadFiles('workday', [file], { token: 'nordkap/Careers' })).rejects.toThrow(
      /expected \{tenant\}\.wd\{N\}\/\{site\}/,
    );
  });
});
