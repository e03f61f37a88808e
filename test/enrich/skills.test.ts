import { describe, expect, it } from 'vitest';
import { extractSkills, normaliseSkill } from '../../src/enrich/skills.ts';

describe('normaliseSkill', () => {
  it.each([
    ['c++', 'cpp'],
    ['C++', 'cpp'],
    ['c#', 'csharp'],
    ['.net', 'dotnet'],
    ['.NET', 'dotnet'],
    ['node.js', 'node'],
    ['Node.js', 'node'],
    ['golang', 'go'],
    ['Go', 'go'],
    ['machine learning', 'machinelearning'],
    ['Machine  Learning', 'machinelearning'],
    ['React Native', 'reactnative'],
    ['postgres', 'postgresql'],
    ['k8s', 'kubernetes'],
    ['Some Unknown Skill', 'someunknownskill'],
    ['python', 'python'],
  ])('%s → %s', (input, want) => {
    expect(normaliseSkill(input)).toBe(want);
  });
});

describe('extractSkills', () => {
  it('finds dictionary skills as single lower-case tokens, in order of mention', () => {
    expect(
      extractSkills([
        'Senior Go Engineer',
        'We use Python/Java, C++, C#, .NET and Node.js. Experience with machine learning, React Native, CI/CD, Google Cloud Platform, REST APIs and Postgres.',
      ]),
    ).toEqual([
      'go',
      'python',
      'java',
      'cpp',
      'csharp',
      'dotnet',
      'node',
      'machinelearning',
      'reactnative',
      'cicd',
      'gcp',
      'rest',
      'postgresql',
    ]);
  });

  it('does not read ordinary words as skills', () => {
    expect(extractSkills(['Go beyond. The rest of the team will express an interest in spring.'])).toEqual([
      'go',
    ]);
    expect(extractSkills(['let us go to the windows'])).toEqual([]);
  });

  it('every token is lower case without spaces', () => {
    for (const s of extractSkills([
      'Machine Learning, Deep Learning, Power BI, Google Analytics, Ruby on Rails',
    ])) {
      expect(s).toMatch(/^[a-z0-9+#.]+$/);
    }
  });
});
