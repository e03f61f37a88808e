import { isSemiSpaceFlag } from '../service/supervisor.ts';

/**
 * The CLI's young generation is sized for loads (`--max-semi-space-size` in package.json's `cli`); the
 * service sizes its HTTP workers' own (src/service/supervisor.ts), so that flag is not passed on to them.
 * An operator still chooses the workers' size with NODE_OPTIONS.
 */
export function serviceExecArgv(execArgv: readonly string[]): string[] {
  return execArgv.filter((f) => !isSemiSpaceFlag(f));
}

export async function run(_args: string[]): Promise<number> {
  process.execArgv = serviceExecArgv(process.execArgv);
  await import('../main.ts');
  return 0;
}
