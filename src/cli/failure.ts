// Every way a command can fail, as one line naming the cause and what to do, with its exit code.
import { ConfigError } from '../config.ts';
import { EmbeddedError } from '../db/embedded.ts';
import { isTimeoutOrConnectionError } from '../db/pool.ts';
import { EXIT } from './spec.ts';

/** A failure the command already put into words. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

const FILE_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'ELOOP']);

/** Where DATABASE_URL points, without its password. */
function databaseName(): string {
  const raw = process.env.DATABASE_URL;
  if (!raw) return 'the embedded PostgreSQL';
  try {
    const u = new URL(raw);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export function describeFailure(err: unknown): { line: string; code: number } {
  const e = (err ?? {}) as { code?: string; message?: string; path?: string; syscall?: string };
  if (err instanceof CliError) return { line: err.message, code: err.code };
  if (err instanceof ConfigError) return { line: `${err.message} (fix or unset it)`, code: EXIT.config };
  if (err instanceof EmbeddedError) return { line: err.message, code: EXIT.database };
  // The same classification the service answers 503 with.
  if (isTimeoutOrConnectionError(err))
    return {
      line: `cannot use the database at ${databaseName()}: ${e.message || e.code}; check that it runs and that DATABASE_URL is right (unset it to use the embedded PostgreSQL under DATA_DIR)`,
      code: EXIT.database,
    };
  if (e.code && FILE_CODES.has(e.code) && e.path)
    return {
      line: `cannot read ${e.path}: ${e.code}${e.code === 'ENOENT' ? ' (no such file or directory)' : ''}`,
      code: EXIT.input,
    };
  const message = e.message || String(err);
  return {
    line: `unexpected error: ${message}${process.env.LOG_LEVEL === 'debug' ? '' : ' (LOG_LEVEL=debug shows where)'}`,
    code: EXIT.failed,
  };
}

/** Runs a command as the command line does: a thrown failure becomes one line on stderr and its exit code. */
export async function runCommand(run: (args: string[]) => Promise<number>, args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (err) {
    const { line, code } = describeFailure(err);
    process.stderr.write(`error: ${line}\n`);
    return code;
  }
}
