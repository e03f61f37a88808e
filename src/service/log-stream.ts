// Where the service's log lines go: as JSON lines (pino's own) for a file, a pipe or a log collector, and
// as readable lines (pino-pretty) on a terminal, where they mix with the start-up banner.
import { isatty } from 'node:tty';
import pino from 'pino';
import pretty from 'pino-pretty';

/** The destination of log lines written to file descriptor `fd` (1: stdout, 2: stderr). */
export function logStream(fd: 1 | 2): pino.DestinationStream {
  if (!isatty(fd)) return pino.destination(fd);
  return pretty({
    destination: fd,
    sync: true,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'hostname',
  });
}
