// The operator's command line: `npm run cli -- <command> [args]`.
// Machine-readable output goes to stdout, messages to stderr.
const commands: Record<
  string,
  { about: string; load: () => Promise<{ run(args: string[]): Promise<number> }> }
> = {
  serve: { about: 'start the service (same as npm start)', load: () => import('./serve.ts') },
  migrate: { about: 'apply database migrations', load: () => import('./migrate.ts') },
  ingest: {
    about: 'load canonical JSON Lines, or saved source payloads with --format',
    load: () => import('./ingest.ts'),
  },
  keys: { about: 'create, list and revoke API keys', load: () => import('./keys.ts') },
  accounts: {
    about: 'create and list accounts, set limits, show usage',
    load: () => import('./accounts.ts'),
  },
  demo: { about: 'generate realistic datasets', load: () => import('./demo.ts') },
  crawl: { about: 'fetch the registered boards and load their postings', load: () => import('./crawl.ts') },
  stats: { about: 'coverage per field and per source', load: () => import('./stats.ts') },
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.about}`);
  return `usage: npm run cli -- <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

const [name, ...args] = process.argv.slice(2);
if (!name || name === 'help' || name === '--help' || !commands[name]) {
  process.stderr.write(
    name && !commands[name] && name !== 'help' && name !== '--help'
      ? `unknown command: ${name}\n\n${usage()}`
      : usage(),
  );
  process.exit(name && name !== 'help' && name !== '--help' ? 2 : 0);
}
const mod = await commands[name].load();
process.exitCode = await mod.run(args);
