// The known sources: public slug, the legacy slug still accepted as input, provenance type, domain.
// Seeded into the sources table at start; a canonical file may add more with `kind: "source"` lines.
import type { SourceRecord } from './record.ts';

export const KNOWN_SOURCES: SourceRecord[] = [
  {
    slug: 'greenhouse',
    legacy_slug: 'greenhouse_io',
    type: 'ats',
    domain: 'boards.greenhouse.io',
    name: 'Greenhouse',
  },
  { slug: 'lever', legacy_slug: 'lever_co', type: 'ats', domain: 'jobs.lever.co', name: 'Lever' },
  { slug: 'ashby', legacy_slug: 'ashbyhq', type: 'ats', domain: 'jobs.ashbyhq.com', name: 'Ashby' },
  {
    slug: 'workable',
    legacy_slug: 'workable_com',
    type: 'ats',
    domain: 'apply.workable.com',
    name: 'Workable',
  },
  {
    slug: 'smartrecruiters',
    legacy_slug: 'smart_recruiters',
    type: 'ats',
    domain: 'jobs.smartrecruiters.com',
    name: 'SmartRecruiters',
  },
  {
    slug: 'recruitee',
    legacy_slug: 'recruitee_com',
    type: 'ats',
    domain: 'recruitee.com',
    name: 'Recruitee',
  },
  { slug: 'personio', legacy_slug: 'personio_de', type: 'ats', domain: 'jobs.personio.de', name: 'Personio' },
  {
    slug: 'workday',
    legacy_slug: 'myworkdayjobs',
    type: 'ats',
    domain: 'myworkdayjobs.com',
    name: 'Workday',
  },
  {
    slug: 'jobposter',
    legacy_slug: 'job_poster',
    type: 'ats',
    domain: 'jobposter.example',
    name: 'JobPoster',
  },
  {
    slug: 'careerboard',
    legacy_slug: 'career_board',
    type: 'jobboard',
    domain: 'careerboard.example',
    name: 'CareerBoard',
  },
  {
    slug: 'techjobs',
    legacy_slug: 'tech_jobs',
    type: 'jobboard',
    domain: 'techjobs.example',
    name: 'TechJobs',
  },
  { slug: 'workhub', legacy_slug: 'work_hub', type: 'jobboard', domain: 'workhub.example', name: 'WorkHub' },
  {
    slug: 'jobmirror',
    legacy_slug: 'job_mirror',
    type: 'aggregator',
    domain: 'jobmirror.example',
    name: 'JobMirror',
  },
  {
    slug: 'alljobs',
    legacy_slug: 'all_jobs',
    type: 'aggregator',
    domain: 'alljobs.example',
    name: 'AllJobs',
  },
];
