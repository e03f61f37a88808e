// How many HTTP processes a service runs when WORKERS is not set (src/config.ts, defaultWorkers).
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultWorkers, loadConfig } from '../../src/config.ts';

describe('WORKERS by default', () => {
  it('is one process up to two cores, one worker per core above', () => {
    expect([1, 2, 3, 4, 16].map(defaultWorkers)).toEqual([1, 1, 3, 4, 16]);
  });

  it('follows the cores of this machine unless set', () => {
    expect(loadConfig({}).WORKERS).toBe(defaultWorkers(os.availableParallelism()));
    expect(loadConfig({ WORKERS: '2' }).WORKERS).toBe(2);
  });
});
