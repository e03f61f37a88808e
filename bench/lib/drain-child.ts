// One feed drain in a process of its own (drain.ts, `drainInChild`); prints its figures as JSON.
import { type Drain, drainFeed } from './drain.ts';

const [base, key, client] = process.argv.slice(2);
process.stdout.write(JSON.stringify(await drainFeed(base, key, client as Drain['client'])));
