// The operator's command line: `npm run -s cli -- <command> [args]`.
// Machine-readable output goes to stdout, messages to stderr; every failure is one line on stderr
// with a documented exit code (src/cli/spec.ts), never a stack trace.
import { describeFailure } from './failure.ts';
import { checkOptions, commandHelp, commandNamed, EXIT, overviewHelp } from './spec.ts';

type Command = { run(args: string[]): Promise<number> };

const load: Record<string, () => Promise<Command>> = {
  serve: () => import('./serve.ts'),
  migrate: () => import('./migrate.ts'),
  ingest: () => import('./ingest.ts'),
  keys: () => import('./keys.ts'),
  accounts: () => import('./accounts.ts'),
  demo: () => import('./demo.ts'),
  crawl: () => import('./crawl.ts'),
  stats: () => import('./stats.ts'),
};

const fail = (line: string) => process.stderr.write(`error: ${line}\n`);

function die(err: unknown): never {
  const { line, code } = describeFailure(err);
  fail(line);
  if (process.env.LOG_LEVEL === 'debug' && err instanceof Error && err.stack)
    process.stderr.write(`${err.stack}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(overviewHelp());
    return EXIT.usage;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    if (args[0] === undefined) {
      process.stdout.write(overviewHelp());
      return EXIT.ok;
    }
    const cmd = commandNamed(args[0]);
    if (!cmd) {
      fail(`unknown command "${args[0]}": npm run -s cli -- help lists the commands`);
      return EXIT.usage;
    }
    process.stdout.write(commandHelp(cmd));
    return EXIT.ok;
  }
  const cmd = commandNamed(name);
  if (!cmd || !load[name]) {
    fail(`unknown command "${name}": npm run -s cli -- help lists the commands`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(commandHelp(cmd));
    return EXIT.ok;
  }
  const problem = checkOptions(cmd, args);
  if (problem) {
    fail(`${problem}; npm run -s cli -- ${name} --help describes it`);
    return EXIT.usage;
  }
  return (await load[name]()).run(args);
}

process.on('uncaughtException', die);
process.on('unhandledRejection', die);
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  die(err);
}
