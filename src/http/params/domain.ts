// Codecs of the product's own kinds of value: text-search syntax and skills.
import { ParamError } from '../../errors.ts';
import { parseAdvancedQuery, parseWebQuery, TextQueryError } from '../../search/textquery.ts';
import { normaliseSkill } from '../../enrich/skills.ts';
import type { Codec } from './codecs.ts';

function textQuery(compile: (s: string) => string, syntax: string): Codec<string> {
  return {
    schema: { type: 'string', minLength: 1, maxLength: 512, description: syntax },
    parse(raw, param) {
      try {
        return compile(raw);
      } catch (err) {
        if (err instanceof TextQueryError) throw new ParamError(param, err.message);
        throw err;
      }
    },
  };
}

/** Google-style syntax, compiled to a tsquery. */
export const TEXT = textQuery(parseWebQuery, 'Google-style search syntax');
/** Operator syntax, compiled to a tsquery. */
export const TEXT_ADVANCED = textQuery(parseAdvancedQuery, 'operator search syntax');

/** Skills, comma = AND, aliases translated (c++ → cpp). */
export const SKILL: Codec<string[]> = {
  schema: { type: 'string', maxLength: 512, description: 'comma-separated skills (all required)' },
  parse(raw, param) {
    if (raw.length > 512) throw new ParamError(param, 'at most 512 characters');
    const items = raw.split(',').map((s) => s.trim());
    if (items.some((s) => s === '')) throw new ParamError(param, 'empty item in comma-separated list');
    if (items.length > 20) throw new ParamError(param, 'at most 20 skills');
    const skills = items.map(normaliseSkill);
    const bad = items.find((_s, i) => skills[i] === '');
    if (bad !== undefined) throw new ParamError(param, `not a skill: ${JSON.stringify(bad)}`);
    return [...new Set(skills)];
  },
};
