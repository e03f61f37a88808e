// Copies across sources in the genuine payloads, through the write path on a real database: the same
// posting on two sources folds into one live job even where the URLs differ, while the same text posted
// for another city (another job) stays live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../../src/ingest/pipeline.ts';
import type { PostingRecord } from '../../../src/model/record.ts';
import { prepareDatabase } from '../../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../../helpers/db.ts';
import { loadReal, REAL_PAYLOADS_ABSENT } from '../../helpers/real-payloads.ts';

let db: TestDb;

async function records(format: string, file: string, ctx: object): Promise<PostingRecord[]> {
  const { postings } = await loadReal(format, file, ctx);
  // Loaded while every page was still listed: Built In's validThrough (2026-07-13) is past today, and an
  // expired row is no copy of anything.
  return [...postings.values()].map((r) => ({ ...r, expires_at: undefined }));
}

async function states(ids: string[]) {
  const { rows } = await db.write.query<{ id: string; state: number; duplicate_of: string | null }>(
    'SELECT id, state, duplicate_of FROM jobs WHERE id = ANY($1) ORDER BY id',
    [ids],
  );
  return rows;
}

describe.skipIf(REAL_PAYLOADS_ABSENT)('copies across sources in genuine payloads', () => {
  beforeAll(async () => {
    db = await createTestDb();
    await prepareDatabase(db);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('the Superhuman posting on its Ashby page and on Built In is one live job (the URLs differ)', async () => {
    // Ashby's page says TELECOMMUTE and San Francisco, Built In says San Francisco: the same place.
    const ashby = await records('jsonld', 'yiakhuat__hermes-agent-setup__ashby-superhuman-tpm-growth.html', {
      source: 'careerboard',
      url: 'https://jobs.ashbyhq.com/superhuman/700c8d97-6ee3-4cb3-afff-b1e2fa157b1c',
    });
    const builtin = await records(
      'jsonld',
      'yiakhuat__hermes-agent-setup__builtinsf-superhuman-tpm-growth.html',
      {
        source: 'techjobs',
      },
    );
    expect(ashby[0].url).not.toBe(builtin[0].url);
    const report = await ingestRecords(
      db,
      [...ashby, ...builtin].map((r) => ({ kind: 'posting' as const, ...r })),
    );
    expect(report.folded).toBe(1);
    const rows = await states([ashby[0].id, builtin[0].id]);
    expect(rows.filter((r) => r.state === 0)).toHaveLength(1);
    const folded = rows.find((r) => r.state === 2);
    expect(folded?.duplicate_of).toBe(rows.find((r) => r.state === 0)?.id);
  });

  it('the Ramp posting on its Ashby board and as its Ashby page is one live job', async () => {
    const board = await records('ashby', 'matchaboar__srajob2__ramp-board-first20.json', { token: 'ramp' });
    const page = await records('jsonld', 'matchaboar__srajob2__ashby-ramp-fraud-risk-associate.html', {
      source: 'careerboard',
      url: 'https://jobs.ashbyhq.com/ramp/caf900ec-0107-436b-88bf-2bc24174e6b9',
    });
    await ingestRecords(
      db,
      [...board, ...page].map((r) => ({ kind: 'posting' as const, ...r })),
    );
    const rows = await states(['ashby:caf900ec-0107-436b-88bf-2bc24174e6b9', page[0].id]);
    // The ATS original stays; the board's copy folds into it.
    expect(rows).toEqual([
      { id: 'ashby:caf900ec-0107-436b-88bf-2bc24174e6b9', state: 0, duplicate_of: null },
      { id: page[0].id, state: 2, duplicate_of: 'ashby:caf900ec-0107-436b-88bf-2bc24174e6b9' },
    ]);
    // The other 19 postings of the board are other jobs: all live.
    const others = await states(board.map((r) => r.id).filter((id) => !id.startsWith('ashby:caf900ec')));
    expect(others.map((r) => r.state)).toEqual(new Array(19).fill(0));
  });

  it('the same text for another city is another job: the Levelpath board stays 25 live jobs', async () => {
    // "Revenue Operations" in San Francisco and in New York City, "Implementation Consultant (San
    // Francisco)" and "(New York)": one text each, two openings.
    const board = await records('ashby', 'stapply-ai__ats-scrapers__Levelpath.json', { token: 'levelpath' });
    const report = await ingestRecords(
      db,
      board.map((r) => ({ kind: 'posting' as const, ...r })),
    );
    expect(report.folded).toBe(0);
    const rows = await states(board.map((r) => r.id));
    expect(rows.filter((r) => r.state === 0)).toHaveLength(25);
  });
});

const absent = REAL_PAYLOADS_ABSENT;
if (absent) describe('copies across sources in genuine payloads', () => it.skip(absent, () => {}));
