// The feeds put a job's JSON together from its bytes (jobParts); the rest of the API renders it from
// strings (renderJob). Both must give the same text for any document, profile and description.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framed, jobParts, joinItems, PLACEHOLDER, renderJob, renderPage } from '../../src/search/render.ts';

/** Keys and values beyond ASCII too: the parts are cut at byte offsets. */
const text = fc.string({ unit: 'grapheme' });

/** A JSON object's text with the placeholder among its keys, as stored documents are. */
const doc = fc.tuple(fc.dictionary(text, text), fc.dictionary(text, text)).map(([before, after]) => {
  const body = (o: Record<string, string>) => JSON.stringify(o).slice(1, -1);
  return `{${[body(before), PLACEHOLDER, body(after)].filter(Boolean).join(',')}}`;
});
const json = fc.jsonValue().map((v) => JSON.stringify(v));

describe('jobParts', () => {
  it('gives the bytes of renderJob, with and without a description', () => {
    fc.assert(
      fc.property(doc, json, fc.option(json), (d, company, description) => {
        const parts = jobParts(
          Buffer.from(d),
          Buffer.from(company),
          description === null ? null : Buffer.from(description),
        );
        expect(Buffer.concat(parts).toString()).toBe(renderJob({ doc: d, company, description }));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves a document without the placeholder as it is', () => {
    const parts = jobParts(Buffer.from('{"id":"a"}'), Buffer.from('{}'), Buffer.from('"d"'));
    expect(Buffer.concat(parts).toString()).toBe('{"id":"a","description":"d"}');
  });
});

describe('renderPage', () => {
  const row = fc.record({
    doc,
    company: json,
    description: fc.option(json),
    openings: fc.option(fc.nat(), { nil: undefined }),
  });

  it('is the JSON array of the rows as renderJob renders them, in UTF-8', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), (rows) => {
        expect(renderPage(rows).toString()).toBe(`[${rows.map(renderJob).join(',')}]`);
      }),
      { numRuns: 300 },
    );
  });

  it('puts the company in the placeholder and what is added before the closing brace', () => {
    const page = renderPage([
      { doc: `{"id":"a",${PLACEHOLDER}}`, company: '{"name":"Ä"}', description: '"d"', openings: 3 },
      { doc: '{"id":"b"}', company: '{}' },
    ]);
    expect(JSON.parse(page.toString())).toEqual([
      { id: 'a', company: { name: 'Ä' }, description: 'd', openings: 3 },
      { id: 'b' },
    ]);
  });
});

describe('joinItems', () => {
  it("is the JSON array of the items' bytes, framed in its own buffer once", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            text.map((t) => Buffer.from(t)),
            { maxLength: 5 },
          ),
        ),
        (items) => {
          const data = joinItems(items);
          const expected = `[${items.map((parts) => Buffer.concat(parts).toString()).join(',')}]`;
          expect(data.toString()).toBe(expected);
          const head = Buffer.from('{"since":"2026-11-30T08:00:00.000Z","count":1000,"data":');
          const body = framed(head, data, Buffer.from(',"next_cursor":null}'));
          expect(body.toString()).toBe(`${head}${expected},"next_cursor":null}`);
          expect(body.buffer).toBe(data.buffer);
        },
      ),
    );
  });
});

describe('framed', () => {
  const head = Buffer.from('{"data":');
  const rows = [{ doc: '{"id":"a","t":"Ä"}', company: '{}' }];

  it('writes the envelope around a rendered page in its own buffer, once', () => {
    const page = renderPage(rows);
    const body = framed(head, page, Buffer.from(',"total":1}'));
    expect(JSON.parse(body.toString())).toEqual({ data: [{ id: 'a', t: 'Ä' }], total: 1 });
    expect(body.buffer).toBe(page.buffer);
    // A second framing of the same bytes must not overwrite the first body.
    const other = framed(head, page, Buffer.from(',"total":2}'));
    expect(other.buffer).not.toBe(page.buffer);
    expect(JSON.parse(body.toString()).total).toBe(1);
    expect(JSON.parse(other.toString()).total).toBe(2);
  });

  it('copies what has no room: bytes of another origin, a tail longer than the room', () => {
    // Bytes around a page of another origin are not its own: they stay as they were.
    const around = Buffer.alloc(40, 'z');
    around.write('[1]', 20);
    const plain = around.subarray(20, 23);
    expect(framed(head, plain, Buffer.from('}')).toString()).toBe('{"data":[1]}');
    expect(around.toString()).toBe(`${'z'.repeat(20)}[1]${'z'.repeat(17)}`);
    const page = renderPage(rows);
    const long = Buffer.from(`,"next_cursor":"${'x'.repeat(400)}"}`);
    const b = framed(head, page, long);
    expect(JSON.parse(b.toString()).next_cursor).toHaveLength(400);
    expect(b.buffer).not.toBe(page.buffer);
  });
});
