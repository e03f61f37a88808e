// Log lines are JSON off a terminal and readable lines on one (pino-pretty), where they mix with the
// start-up banner. The terminal is a real pseudo-terminal, made by util-linux's `script`.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const program = `import pino from 'pino'; import { logStream } from './src/service/log-stream.ts';
pino(logStream(1)).info({ component: 'limiter' }, 'hello from the log');`;
const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', program];
const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
const haveScript = spawnSync('script', ['--version']).status === 0;
if (!haveScript) console.warn('log-stream: util-linux `script` is missing; the terminal case is skipped');

describe('log lines', () => {
  it('are JSON when stdout is not a terminal', () => {
    const out = execFileSync(node[0], node.slice(1), { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ level: 30, component: 'limiter', msg: 'hello from the log' });
  });

  it.skipIf(!haveScript)('are readable lines on a terminal', () => {
    const out = execFileSync('script', ['-qec', node.map(quote).join(' '), '/dev/null'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(out).toMatch(/INFO.*hello from the log/);
    expect(out).toContain('component');
    expect(out).not.toContain('{"level"');
  });
});
