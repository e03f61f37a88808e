// Progress lines of the long commands: what they say, plain lines off a terminal, silence with --quiet.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describe as line, startProgress, takeQuiet } from '../../src/cli/progress.ts';

function capture() {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  let text = '';
  stream.on('data', (b: Buffer) => {
    text += b.toString();
  });
  return { stream, text: () => text };
}

describe('progress', () => {
  it('says done/total, the rate and the ETA', () => {
    expect(line('ingest jobs.jsonl', 'postings', 25_000, 100_000, 50)).toBe(
      'ingest jobs.jsonl: 25,000/100,000 postings (25.0%), 500 postings/s, ETA 2m30s, 50s elapsed',
    );
    expect(line('crawl', 'boards', 3, 0, 2)).toBe('crawl: 3 boards, 2 boards/s, 2s elapsed');
  });

  it('off a terminal: plain lines on the stream, the last one at the end', () => {
    const out = capture();
    const p = startProgress('generate jobs.jsonl', 'postings', { stream: out.stream });
    p.update(10, 100);
    p.tick(100);
    p.stop();
    expect(out.text()).toMatch(/^generate jobs\.jsonl: 11\/100 postings \(11\.0%\), [\d,]+ postings\/s/);
    expect(out.text().trim().split('\n')).toHaveLength(1);
  });

  it('--quiet anywhere silences it and is removed from the arguments', () => {
    expect(takeQuiet(['--quiet', 'a.jsonl', '--format', 'x'])).toEqual({
      quiet: true,
      args: ['a.jsonl', '--format', 'x'],
    });
    expect(takeQuiet(['a.jsonl'])).toEqual({ quiet: false, args: ['a.jsonl'] });
    const out = capture();
    const p = startProgress('ingest', 'postings', { stream: out.stream, quiet: true });
    p.update(1, 2);
    p.stop();
    expect(out.text()).toBe('');
  });
});
