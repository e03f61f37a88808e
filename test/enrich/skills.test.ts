import { describe, expect, it } from 'vitest';
import { employerSkills, extractSkills, normaliseSkill, roleText } from '../../src/enrich/skills.ts';

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

describe('skills of the role, not of the employer', () => {
  // The first text is the title; the second the description, where names are told.
  it('does not read names, dates, currencies and abbreviations as skills', () => {
    expect(extractSkills(['', 'Leaders from Goldman Sachs, American Express, Mastercard and Visa'])).toEqual(
      [],
    );
    expect(extractSkills(['', 'Graduation date in Fall 2026 or Spring 2027'])).toEqual([]);
    expect(extractSkills(['', 'Pay rate: PHP 550/hour'])).toEqual([]);
    expect(
      extractSkills(['', 'Knowledge of P&C insurance, recommendations for R&D, Go-To-Market roles']),
    ).toEqual([]);
    expect(extractSkills(['', 'Node, Express and Spring Boot; PHP/Laravel; R or Python; Go'])).toEqual(
      expect.arrayContaining(['node', 'express', 'springboot', 'php', 'laravel', 'r', 'python', 'go']),
    );
  });

  it("leaves out the employer's blurb, benefits, hiring process and legal text", () => {
    const text = [
      'About Ramp',
      'At Ramp, we rethink finance in the age of AI: procurement and bookkeeping.',
      'What You Need',
      '- Minimum 2 years of experience using SQL, Python, or R',
      'Benefits',
      '- Exclusive Networking events',
      'Ramp is an equal opportunity employer; recruitment is fair.',
    ].join('\n');
    expect(extractSkills([roleText(text, 'Ramp')])).toEqual(['sql', 'python', 'r']);
    expect(extractSkills(['Experience with MongoDB and GitHub'], 40, employerSkills('GitHub, Inc.'))).toEqual(
      ['mongodb'],
    );
  });
});
