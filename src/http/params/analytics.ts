// Codecs of the analytics endpoints' own parameters: facet names and salary histogram edges.
import { ParamError } from '../../errors.ts';
import type { Codec } from './codecs.ts';

const MAX_EDGES = 100;

/**
 * Comma-separated names of `names` (no repeats), kept in the order given. The schema lists the names as
 * an enum (one name) beside the pattern of a comma list, so the document names every allowed value.
 */
export function nameList(names: readonly string[]): Codec<string[]> {
  const one = names.join('|');
  return {
    schema: {
      anyOf: [
        { type: 'string', enum: [...names] },
        { type: 'string', pattern: `^(${one})(,(${one}))*$`, description: 'comma-separated names' },
      ],
    },
    parse(raw, param) {
      const items = raw.split(',').map((s) => s.trim());
      if (items.some((s) => s === '')) throw new ParamError(param, 'empty item in comma-separated list');
      for (const item of items)
        if (!names.includes(item))
          throw new ParamError(
            param,
            `unknown value ${JSON.stringify(item)}; allowed values: ${names.join(', ')}`,
          );
      if (new Set(items).size !== items.length) throw new ParamError(param, 'a name is given more than once');
      return items;
    },
  };
}

/** Strictly ascending, non-negative numbers, comma-separated. */
export const ascendingNumbers: Codec<number[]> = {
  schema: {
    type: 'string',
    pattern: '^[0-9]+(\\.[0-9]+)?(,[0-9]+(\\.[0-9]+)?)*$',
    examples: ['50000,100000,150000'],
  },
  parse(raw, param) {
    const items = raw.split(',').map((s) => s.trim());
    if (items.length > MAX_EDGES) throw new ParamError(param, `at most ${MAX_EDGES} edges`);
    const edges = items.map((s) => {
      if (!/^\d+(\.\d+)?$/.test(s) || !Number.isFinite(Number(s)) || Number(s) > 1e15)
        throw new ParamError(param, `not a number from 0 to 1e15: ${JSON.stringify(s)}`);
      return Number(s);
    });
    if (edges.some((e, i) => i > 0 && e <= edges[i - 1]!))
      throw new ParamError(param, 'edges must be strictly ascending');
    return edges;
  },
};
