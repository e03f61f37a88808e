// The spec's enumerations, exact and case-sensitive: the one vocabulary for validation, enrichment and OpenAPI.
export const CONTINENTS = [
  'Africa',
  'Antarctica',
  'Asia',
  'Europe',
  'North America',
  'Oceania',
  'South America',
] as const;
export const WORK_ARRANGEMENTS = ['On-site', 'Hybrid', 'Remote'] as const;
export const EMPLOYMENT_TYPES = [
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
  'PER_DIEM',
  'VOLUNTEER',
  'OTHER',
] as const;
export const SENIORITY = [
  'Internship',
  'Entry level',
  'Associate',
  'Mid-Senior level',
  'Director',
  'Management',
] as const;
export const EXPERIENCE_LEVELS = ['0-2', '2-5', '5-10', '10+'] as const;
export const EDUCATION = [
  'high school',
  'professional certificate',
  'associate degree',
  'bachelor degree',
  'postgraduate degree',
] as const;
export const SOURCE_TYPES = ['ats', 'jobboard', 'aggregator'] as const;
export const TAXONOMIES = [
  'Administrative',
  'Agriculture',
  'Art & Design',
  'Construction',
  'Consulting',
  'Creative & Media',
  'Customer Service & Support',
  'Data & Analytics',
  'Education',
  'Energy',
  'Engineering',
  'Finance & Accounting',
  'Healthcare',
  'Hospitality',
  'Human Resources',
  'Legal',
  'Logistics',
  'Management & Leadership',
  'Manufacturing',
  'Marketing',
  'Sales',
  'Science & Research',
  'Security & Safety',
  'Social Services',
  'Software',
  'Technology',
  'Trades',
  'Transportation',
] as const;
export const SIZE_BUCKETS = [
  '1-10 employees',
  '11-50 employees',
  '51-200 employees',
  '201-500 employees',
  '501-1000 employees',
  '1001-5000 employees',
  '5001-10000 employees',
  '10001+ employees',
] as const;
