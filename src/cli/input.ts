// Input paths checked before anything loads, so an unreadable file is one line, not a half-done load.
import fs from 'node:fs';
import { CliError } from './failure.ts';
import { EXIT } from './spec.ts';

/** Every path must be a readable file (or, with --format, a directory) before anything loads. */
export function checkReadable(paths: string[], dirs: boolean): void {
  for (const p of paths) {
    let st: fs.Stats;
    try {
      fs.accessSync(p, fs.constants.R_OK);
      st = fs.statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(
        `cannot read ${p}: ${code === 'ENOENT' ? 'no such file or directory' : code}`,
        EXIT.input,
      );
    }
    if (st.isDirectory() && !dirs)
      throw new CliError(`${p} is a directory: give the .jsonl files in it`, EXIT.input);
  }
}
