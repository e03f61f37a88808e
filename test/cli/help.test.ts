// The command reference: `help`, `<command> --help` and the README list every command and option.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandHelp, EXIT_DOCS, overviewHelp } from '../../src/cli/spec.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const flags = (c: (typeof COMMANDS)[number]) =>
  Object.values(c.options).flatMap((o) => o.map((x) => x.flag.split(' ')[0]));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('command reference', () => {
  it('help lists every command with its description, and the exit codes', () => {
    const r = cli('help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(overviewHelp());
    for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.name}`);
    for (const [code, what] of EXIT_DOCS) expect(r.stdout).toContain(`${code}  ${what}`);
  });

  it('<command> --help describes every option and gives an example', () => {
    const r = cli('ingest', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(commandHelp(COMMANDS.find((c) => c.name === 'ingest')!));
    for (const c of COMMANDS) {
      const text = commandHelp(c);
      for (const f of flags(c)) expect(text, `${c.name} ${f}`).toContain(f);
      expect(c.examples.length, c.name).toBeGreaterThan(0);
      for (const e of c.examples) expect(text).toContain(e);
    }
    expect(cli('keys', 'create', '--help').stdout).toContain('--account NAME');
  });

  it('the README lists every command, option and exit code', () => {
    const section = README.slice(
      README.indexOf('## Operator commands'),
      README.indexOf('## The embedded database'),
    );
    for (const c of COMMANDS) {
      expect(section, c.name).toContain(`\`${c.name}`);
      for (const f of flags(c)) expect(section, `${c.name} ${f}`).toContain(f);
    }
    for (const [code] of EXIT_DOCS) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });
});
