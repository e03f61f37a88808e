// Runs a CLI command in-process, as the command line does (a thrown failure becomes one line and its
// exit code), and captures what it writes to stdout and stderr.
import { vi } from 'vitest';
import { runCommand } from '../../src/cli/failure.ts';

export async function capture(
  run: (args: string[]) => Promise<number>,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
  try {
    const code = await runCommand(run, args);
    return { code, out: out.join(''), err: err.join('') };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
