// Every operator command, its options and examples: the one source of `help`, of `<command> --help`,
// of the check that rejects unknown options, and of the README's command reference (a test compares).

export interface OptionSpec {
  /** `--name`, with its value's placeholder when it takes one. */
  flag: string;
  about: string;
}

export interface CommandSpec {
  name: string;
  about: string;
  /** Usage lines without the `npm run -s cli --` prefix. */
  usage: string[];
  /** Options by subcommand (`''` when the command has none). */
  options: Record<string, OptionSpec[]>;
  examples: string[];
}

/** Exit codes of every command. */
export const EXIT = {
  ok: 0,
  /** The command ran and was refused or found nothing (no such account, key limit reached, a board failed). */
  failed: 1,
  /** Unknown command or option, missing or bad value. */
  usage: 2,
  /** ingest: some records were rejected (each named on stderr); the rest loaded. */
  someRejected: 3,
  /** ingest: nothing could be loaded (every record rejected, or every file unreadable as its format). */
  nothingLoaded: 4,
  /** The database could not be started or reached. */
  database: 5,
  /** An input file or directory could not be read. */
  input: 6,
  /** An environment setting is invalid. */
  config: 7,
} as const;

export const EXIT_DOCS: [number, string][] = [
  [EXIT.ok, 'success'],
  [EXIT.failed, 'refused or not found (no such account or key, key limit reached, a crawled board failed)'],
  [EXIT.usage, 'unknown command or option, missing or bad value'],
  [
    EXIT.someRejected,
    'ingest: some records rejected (each named on stderr with its reason); the rest loaded',
  ],
  [EXIT.nothingLoaded, 'ingest: nothing could be loaded'],
  [EXIT.database, 'the database could not be started or reached'],
  [EXIT.input, 'an input file or directory could not be read'],
  [EXIT.config, 'an environment setting is invalid'],
];

const QUIET: OptionSpec = {
  flag: '--quiet',
  about: 'no progress lines on stderr (the report still goes to stdout)',
};

export const COMMANDS: CommandSpec[] = [
  {
    name: 'serve',
    about: 'start the service (same as npm start); settings come from the environment',
    usage: ['serve'],
    options: { '': [] },
    examples: ['PORT=9000 npm run -s cli -- serve'],
  },
  {
    name: 'migrate',
    about: 'apply the database migrations (also done at every start); prints the schema version',
    usage: ['migrate [--quiet]'],
    options: { '': [QUIET] },
    examples: ['npm run -s cli -- migrate'],
  },
  {
    name: 'ingest',
    about: 'load canonical JSON Lines, or saved source payloads with --format; prints a report',
    usage: ['ingest [--quiet] FILE.jsonl…', 'ingest --format ADAPTER [options] FILE|DIR…'],
    options: {
      '': [
        {
          flag: '--format ADAPTER',
          about:
            'read saved source payloads: greenhouse, lever, ashby, workable, smartrecruiters, recruitee, personio, workday, jsonld',
        },
        {
          flag: '--source SLUG',
          about: 'source slug of the payloads (default: the adapter; required for jsonld)',
        },
        {
          flag: '--source-type TYPE',
          about: 'with --source: register a new source of this type (ats, jobboard or aggregator)',
        },
        {
          flag: '--source-domain DOMAIN',
          about: 'with --source: the new source’s domain (e.g. jobs.example.org)',
        },
        {
          flag: '--source-name NAME',
          about: 'with --source: the new source’s display name (default: the slug)',
        },
        {
          flag: '--board TOKEN',
          about: 'board token of the payloads (Workday: tenant.wdN/site); default: the file name',
        },
        {
          flag: '--company NAME',
          about: 'employer of a single-employer board whose payload does not name it',
        },
        {
          flag: '--url URL',
          about:
            'address a saved page was fetched from (jsonld: a page that names no URL of its own; one file only)',
        },
        {
          flag: '--expire-missing',
          about: 'each file is a whole board: expire its postings that the file no longer lists',
        },
        QUIET,
      ],
    },
    examples: [
      'npm run -s cli -- ingest bench/data/jobs.jsonl',
      'npm run -s cli -- ingest --format greenhouse --expire-missing saved/greenhouse/acme.json',
      'npm run -s cli -- ingest --format jsonld --source jobsnorth --source-type jobboard --source-domain jobsnorth.example page.html',
    ],
  },
  {
    name: 'crawl',
    about: 'fetch the registered boards and load their postings, once or on a schedule',
    usage: ['crawl --boards FILE [options]'],
    options: {
      '': [
        {
          flag: '--boards FILE',
          about: 'JSON array of {source, board (token or URL), company?: {name, slug, domain}}',
        },
        {
          flag: '--once',
          about: 'one round, then exit (1 when a board failed); otherwise repeat every --interval',
        },
        { flag: '--interval SECONDS', about: 'pause between rounds (default 900)' },
        { flag: '--concurrency N', about: 'boards fetched at once (default 4)' },
        { flag: '--state FILE', about: 'keep ETag/Last-Modified validators between runs in FILE' },
        {
          flag: '--base SOURCE=URL',
          about: 'override a source’s base URL (repeatable; {token}, {tenant}, {wd}, {site})',
        },
        { flag: '--host-delay-ms N', about: 'minimum spacing between requests to one host (default 1000)' },
        { flag: '--timeout-ms N', about: 'per-request timeout (default 20000)' },
        { flag: '--retries N', about: 'retries on 5xx, 429 and network errors (default 3)' },
        { flag: '--dry-run', about: 'fetch and parse only; no database' },
        QUIET,
      ],
    },
    examples: ['npm run -s cli -- crawl --boards boards.json --once --state crawl-state.json'],
  },
  {
    name: 'keys',
    about: 'create, list and revoke API keys (a revocation applies from the next request)',
    usage: ['keys create --account NAME', 'keys list [--account NAME]', 'keys revoke ID'],
    options: {
      create: [{ flag: '--account NAME', about: 'the account (created with the default limits if new)' }],
      list: [{ flag: '--account NAME', about: 'only this account’s keys' }],
      revoke: [],
    },
    examples: ['npm run -s cli -- keys create --account acme', 'npm run -s cli -- keys revoke 7'],
  },
  {
    name: 'accounts',
    about: 'create and list accounts, set their per-minute limits and monthly quotas, show usage',
    usage: [
      'accounts create NAME [--rate-limit N] [--monthly-quota N]',
      'accounts list',
      'accounts set-limits NAME [--rate-limit N] [--monthly-quota N]',
      'accounts usage [NAME]',
    ],
    options: {
      create: [
        { flag: '--rate-limit N', about: 'requests per sliding minute (default RATE_LIMIT_PER_MINUTE)' },
        { flag: '--monthly-quota N', about: 'requests per calendar month (default MONTHLY_QUOTA)' },
      ],
      list: [],
      'set-limits': [
        { flag: '--rate-limit N', about: 'new requests per sliding minute' },
        { flag: '--monthly-quota N', about: 'new requests per calendar month' },
      ],
      usage: [],
    },
    examples: [
      'npm run -s cli -- accounts create acme --rate-limit 1200',
      'npm run -s cli -- accounts usage acme',
    ],
  },
  {
    name: 'demo',
    about: 'generate a realistic, deterministic dataset (base snapshot and change rounds)',
    usage: ['demo generate --jobs N --out DIR [--seed S] [--rounds R] [--now ISO-8601]'],
    options: {
      generate: [
        { flag: '--jobs N', about: 'postings of the base snapshot' },
        { flag: '--out DIR', about: 'where jobs.jsonl and round-1.jsonl … round-R.jsonl are written' },
        { flag: '--seed S', about: 'generator seed (default 1); the same options give the same bytes' },
        { flag: '--rounds R', about: 'change rounds after the base snapshot (default 0)' },
        { flag: '--now ISO-8601', about: 'the date of the last round (default: the current hour)' },
        QUIET,
      ],
    },
    examples: ['npm run -s cli -- demo generate --jobs 100000 --rounds 2 --out data/demo-100k'],
  },
  {
    name: 'stats',
    about: 'coverage per field over the live jobs, per source and in total',
    usage: ['stats'],
    options: { '': [] },
    examples: ['npm run -s cli -- stats'],
  },
  {
    name: 'help',
    about: 'list the commands, or describe one',
    usage: ['help [COMMAND]', 'COMMAND --help'],
    options: { '': [] },
    examples: ['npm run -s cli -- help ingest'],
  },
];

export const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name);

/** The options of `name` (and its subcommand), for parsing; none for an unknown subcommand. */
export function specOptions(name: string, sub?: string): OptionSpec[] {
  const cmd = commandNamed(name);
  return (cmd && optionsFor(cmd, sub)) ?? [];
}

const flagName = (o: OptionSpec) => o.flag.split(' ')[0];
export const takesValue = (o: OptionSpec) => o.flag.includes(' ');

/** The allowed options of a command line, or undefined for an unknown subcommand. */
function optionsFor(cmd: CommandSpec, sub: string | undefined): OptionSpec[] | undefined {
  if ('' in cmd.options) return cmd.options[''];
  return sub !== undefined && Object.hasOwn(cmd.options, sub) ? cmd.options[sub] : undefined;
}

/** The first unknown option of `args`, or a subcommand problem, as one line; undefined when all is known. */
export function checkOptions(cmd: CommandSpec, args: string[]): string | undefined {
  const subs = Object.keys(cmd.options).filter((k) => k !== '');
  const sub = subs.length ? args[0] : undefined;
  const allowed = optionsFor(cmd, sub);
  if (!allowed) {
    return sub === undefined || sub.startsWith('-')
      ? `${cmd.name} needs a subcommand: ${subs.join(', ')}`
      : `unknown ${cmd.name} subcommand "${sub}" (known: ${subs.join(', ')})`;
  }
  for (const a of subs.length ? args.slice(1) : args) {
    if (!a.startsWith('--')) continue;
    const name = a.split('=', 1)[0];
    if (!allowed.some((o) => flagName(o) === name))
      return `unknown option ${name} for ${cmd.name}${sub ? ` ${sub}` : ''}${allowed.length ? ` (known: ${allowed.map(flagName).join(', ')})` : ' (it takes none)'}`;
  }
  return undefined;
}

function optionLines(options: OptionSpec[]): string[] {
  const width = Math.max(0, ...options.map((o) => o.flag.length));
  return options.map((o) => `  ${o.flag.padEnd(width)}  ${o.about}`);
}

export function commandHelp(cmd: CommandSpec): string {
  const lines = [
    `${cmd.name}: ${cmd.about}`,
    '',
    'usage:',
    ...cmd.usage.map((u) => `  npm run -s cli -- ${u}`),
  ];
  const subs = Object.entries(cmd.options).filter(([, o]) => o.length);
  for (const [sub, options] of subs)
    lines.push('', sub ? `options of ${sub}:` : 'options:', ...optionLines(options));
  lines.push('', 'examples:', ...cmd.examples.map((e) => `  ${e}`), '', exitHelp());
  return `${lines.join('\n')}\n`;
}

function exitHelp(): string {
  return ['exit codes:', ...EXIT_DOCS.map(([code, what]) => `  ${code}  ${what}`)].join('\n');
}

export function overviewHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: npm run -s cli -- <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.about}`),
    '',
    '`npm run -s cli -- <command> --help` describes a command, its options and examples.',
    'Machine-readable output goes to stdout, messages to stderr. Settings come from the environment',
    '(DATA_DIR, DATABASE_URL, …; see the README); with the embedded PostgreSQL every command joins the',
    'cluster of a running service on the same DATA_DIR, or starts and stops one itself.',
    '',
    exitHelp(),
    '',
  ].join('\n');
}
