// Command-line options of `npm run bench`.
import os from 'node:os';
import { defaultWorkers } from '../../src/config.ts';

export interface BenchOptions {
  jobs: number;
  seed: number;
  duration: number;
  connections: number;
  reuse: boolean;
  databaseUrl?: string;
  workers?: number;
  rounds: number;
  mixDuringRound: boolean;
  quick: boolean;
  /** Kinds of the varied mix to drive alone, values varied (after the varied mix). */
  kinds: string[];
  /** Kinds left out of the varied mix (to compare with a version that has no such kinds). */
  skip: string[];
}

export const USAGE = `usage: npm run bench -- [options]

  --jobs N            postings of the generated base snapshot (default 1000000)
  --seed S            generator seed (default 1)
  --rounds R          change rounds generated and loaded after the base snapshot, so the modified
                      and expired feeds have rows (default 1)
  --duration SECONDS  measuring time per request kind, and for the mix (default 10)
  --connections C     concurrent keep-alive connections of the load generator (default 16)
  --reuse             reuse the dataset and the database of an earlier run with the same --jobs/--seed
  --database-url URL  external PostgreSQL (default: an embedded one under bench/data/)
  --workers N         WORKERS of the service (default: the service's own, ${defaultWorkers(os.availableParallelism())} here)
  --mix-during-round  load the rounds after the measurements, driving the mix while each round loads
                      (the mix's latency under a concurrent load, and the round's rate under traffic)
  --quick             only the varied mix, the fixed mix and the feed drain (no kind alone)
  --kinds A,B         also drive these kinds of the varied mix alone, their values varied as the mix
                      varies them (e.g. facets,salary_distribution,trends,description)
  --skip A,B          leave these kinds out of the varied mix (e.g. the analytics kinds, to compare with
                      a version without them)
`;

export function parseOptions(argv: string[]): BenchOptions {
  const o: BenchOptions = {
    jobs: 1_000_000,
    seed: 1,
    duration: 10,
    connections: 16,
    reuse: false,
    rounds: 1,
    mixDuringRound: false,
    quick: false,
    kinds: [],
    skip: [],
  };
  const kindNames = (name: string, v: string | undefined): string[] => {
    if (!v || !/^[a-z_0-9]+(,[a-z_0-9]+)*$/.test(v))
      throw new Error(`--${name} needs a comma list of kind names`);
    return v.split(',');
  };
  const int = (name: string, v: string | undefined, min: number): number => {
    if (v === undefined || !/^\d+$/.test(v) || Number(v) < min)
      throw new Error(`--${name} needs an integer >= ${min}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--jobs':
        o.jobs = int('jobs', value(), 1);
        break;
      case '--seed':
        o.seed = int('seed', value(), 0);
        break;
      case '--rounds':
        o.rounds = int('rounds', value(), 0);
        break;
      case '--duration':
        o.duration = int('duration', value(), 1);
        break;
      case '--connections':
        o.connections = int('connections', value(), 1);
        break;
      case '--workers':
        o.workers = int('workers', value(), 1);
        break;
      case '--reuse':
        o.reuse = true;
        break;
      case '--quick':
        o.quick = true;
        break;
      case '--kinds':
        o.kinds = kindNames('kinds', value());
        break;
      case '--skip':
        o.skip = kindNames('skip', value());
        break;
      case '--mix-during-round':
        o.mixDuringRound = true;
        break;
      case '--database-url': {
        const v = value();
        if (!v) throw new Error('--database-url needs a value');
        o.databaseUrl = v;
        break;
      }
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return o;
}
