// The readable table and the SVG plot of a result.
import type { Figures } from './drive.ts';

export interface KindResult {
  kind: string;
  weight: number;
  example: string;
  /** When the service's drive of it began (ISO): to place it against the service's and PostgreSQL's logs. */
  started_at?: string;
  service: Figures;
  baseline: Figures;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : a > 0 ? Number.POSITIVE_INFINITY : 1);

function fmtRatio(x: number): string {
  if (!Number.isFinite(x)) return '∞';
  if (x < 0.1) return `${x.toPrecision(2)}×`;
  if (x < 1) return `${x.toFixed(2)}×`;
  return x >= 100 ? `${Math.round(x)}×` : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(1)}×`;
}

function fmtMs(x: number): string {
  return x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

/** Latency figures with their ratio to the baseline (`12.3 (41×)`); throughput likewise (a share < 1). */
export function table(rows: KindResult[]): string {
  const head = [
    'kind',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'req/s',
    'errors',
    'non-2xx',
    'base p50',
    'base req/s',
  ];
  const body = rows.map((r) => {
    const s = r.service;
    const b = r.baseline;
    const cell = (a: number, base: number) => `${fmtMs(a)} (${fmtRatio(ratio(a, base))})`;
    return [
      r.kind,
      cell(s.p50_ms, b.p50_ms),
      cell(s.p95_ms, b.p95_ms),
      cell(s.p99_ms, b.p99_ms),
      cell(s.max_ms, b.max_ms),
      `${fmtMs(s.rps)} (${fmtRatio(ratio(s.rps, b.rps))})`,
      String(s.errors),
      String(s.non2xx),
      fmtMs(b.p50_ms),
      fmtMs(b.rps),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w, i) => (i === 0 ? '-' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}

/** Horizontal bars per kind: p50, p95 and p99 of the service on a log scale, the baseline p50 as a tick. */
export function svg(rows: KindResult[], title: string): string {
  const rowH = 22;
  const left = 140;
  const width = 860;
  const plotW = width - left - 20;
  const top = 50;
  const height = top + rows.length * rowH + 50;
  const values = rows.flatMap((r) => [r.service.p99_ms, r.baseline.p50_ms]).filter((v) => v > 0);
  const lo = Math.max(0.05, Math.min(...values) / 1.5);
  const hi = Math.max(...values) * 1.5;
  const x = (v: number) => left + (Math.log(Math.max(v, lo) / lo) / Math.log(hi / lo)) * plotW;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="20" font-size="14">${esc(title)}</text>`,
    `<text x="${left}" y="38" fill="#555">latency (ms, log scale): p50 dark, p95 mid, p99 light; black tick: baseline p50</text>`,
  ];
  for (let d = 10 ** Math.floor(Math.log10(lo)); d <= hi; d *= 10) {
    if (d < lo) continue;
    const gx = x(d).toFixed(1);
    out.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${height - 40}" stroke="#ddd"/>`);
    out.push(
      `<text x="${gx}" y="${height - 25}" text-anchor="middle" fill="#555">${d >= 1 ? d : d.toPrecision(1)}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const bar = (v: number, color: string) =>
      `<rect x="${left}" y="${y + 3}" width="${Math.max(1, x(v) - left).toFixed(1)}" height="${rowH - 8}" fill="${color}"/>`;
    out.push(`<text x="${left - 8}" y="${y + rowH / 2 + 4}" text-anchor="end">${esc(r.kind)}</text>`);
    out.push(
      bar(r.service.p99_ms, '#c6dbef'),
      bar(r.service.p95_ms, '#6baed6'),
      bar(r.service.p50_ms, '#2171b5'),
    );
    const bx = x(r.baseline.p50_ms).toFixed(1);
    out.push(
      `<line x1="${bx}" y1="${y + 1}" x2="${bx}" y2="${y + rowH - 3}" stroke="black" stroke-width="2"/>`,
    );
    out.push(
      `<text x="${Math.min(width - 60, x(r.service.p99_ms) + 4).toFixed(1)}" y="${y + rowH / 2 + 4}" fill="#333">${fmtMs(r.service.p99_ms)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
