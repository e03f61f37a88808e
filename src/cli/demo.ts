// `demo generate`: writes a deterministic demo dataset as canonical JSON Lines (src/demo/write.ts).
import { writeDataset } from '../demo/write.ts';
import { generateProgress, takeQuiet } from './progress.ts';

const USAGE = `usage: npm run -s cli -- demo generate --jobs N --seed S --out DIR [--rounds R] [--now ISO-8601]

Writes DIR/jobs.jsonl (sources, companies, then postings) and DIR/round-1.jsonl … DIR/round-R.jsonl.
The same options (including --now, which defaults to the current hour) give the same bytes.
`;

function parseArgs(args: string[]): Map<string, string> | string {
  const opts = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^--([a-z]+)(?:=(.*))?$/.exec(a);
    if (!m) return `unexpected argument: ${a}`;
    const value = m[2] ?? args[++i];
    if (value === undefined || value === '') return `--${m[1]} needs a value`;
    opts.set(m[1], value);
  }
  return opts;
}

function intOpt(opts: Map<string, string>, name: string, min: number, dflt?: number): number | string {
  const v = opts.get(name);
  if (v === undefined) return dflt ?? `--${name} is required`;
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v)))
    return `--${name} must be an integer >= ${min}`;
  return Number(v);
}

export async function run(argv: string[]): Promise<number> {
  const { quiet, args } = takeQuiet(argv);
  const [sub, ...rest] = args;
  if (sub !== 'generate') {
    process.stderr.write(
      sub && sub !== 'help' && sub !== '--help' ? `unknown demo command: ${sub}\n\n${USAGE}` : USAGE,
    );
    return sub && sub !== 'help' && sub !== '--help' ? 2 : 0;
  }
  const parsed = parseArgs(rest);
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}\n\n${USAGE}`);
    return 2;
  }
  for (const k of parsed.keys()) {
    if (!['jobs', 'seed', 'out', 'rounds', 'now'].includes(k)) {
      process.stderr.write(`unknown option: --${k}\n\n${USAGE}`);
      return 2;
    }
  }
  const jobs = intOpt(parsed, 'jobs', 1);
  const seed = intOpt(parsed, 'seed', 0, 1);
  const rounds = intOpt(parsed, 'rounds', 0, 0);
  const out = parsed.get('out');
  const nowText = parsed.get('now');
  const now = nowText ? new Date(nowText) : undefined;
  const problem =
    [jobs, seed, rounds].find((v) => typeof v === 'string') ?? (out ? undefined : '--out is required');
  if (problem || (now && Number.isNaN(now.getTime()))) {
    process.stderr.write(`${problem ?? '--now must be an ISO 8601 instant'}\n\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const progress = generateProgress(jobs as number, quiet);
  const files = await writeDataset(
    out!,
    { jobs: jobs as number, seed: seed as number, rounds: rounds as number, now },
    progress.onProgress,
  );
  progress.stop();
  const seconds = (Date.now() - started) / 1000;
  const postings = files.reduce((a, f) => a + f.postings, 0);
  process.stdout.write(
    `${JSON.stringify(
      {
        files,
        postings,
        seconds: Math.round(seconds * 10) / 10,
        postings_per_s: Math.round(postings / Math.max(seconds, 0.001)),
      },
      null,
      2,
    )}\n`,
  );
  return 0;
}
