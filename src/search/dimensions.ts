// The facet dimensions, declared once: per dimension its public name, how its values are read from a
// stored job row (`j`, joined to its verified company profile as `co` when the dimension needs it) and
// of what shape, and the label shown beside a value. Facets (facets.ts), the OpenAPI enum of `facets` and
// the hint of its 400 all read these declarations. The SQL here is fixed text: no value ever enters it.

/** How a row holds its values: one value or none, a list of values, or a flag that is never missing. */
export type DimensionShape = 'scalar' | 'array' | 'boolean';

export interface Dimension {
  name: string;
  shape: DimensionShape;
  /** The SQL expression of the row's value(s), over `j` (jobs) and `co` (companies). */
  value: string;
  /** Whether `value` (or `label`) reads the company profile `co`. */
  company?: boolean;
  /** A readable name shown beside each value (company: its name), as SQL over `co`. */
  label?: string;
}

const d = (
  name: string,
  shape: DimensionShape,
  value: string,
  extra: Partial<Dimension> = {},
): Dimension => ({
  name,
  shape,
  value,
  ...extra,
});

/**
 * Every facetable dimension. Values are what the filter of the same name takes (ISO-2 country codes,
 * lower-case cities, public source slugs, ISO 639-1 languages, lower-case industries), so a value's
 * count is what /v1/jobs/count answers with that filter added.
 */
export const DIMENSIONS: readonly Dimension[] = [
  d('country', 'array', 'j.country_codes'),
  d('continent', 'array', 'j.continents'),
  d('city', 'array', 'j.cities'),
  d('remote', 'boolean', 'j.remote'),
  d('work_arrangement', 'scalar', 'j.work_arrangement'),
  d('employment_type', 'array', 'j.employment_type'),
  d('seniority', 'scalar', 'j.seniority'),
  d('experience_level', 'scalar', 'j.experience_level'),
  d('education_requirements', 'array', 'j.education'),
  d('taxonomies', 'array', 'j.taxonomies'),
  d('skills', 'array', 'j.skills'),
  d('source', 'scalar', 'j.source'),
  d('source_type', 'scalar', 'j.source_type'),
  d('job_language', 'scalar', 'j.language'),
  // The verified profile only, as the company filters: an unresolved employer has no value.
  d('company', 'scalar', 'co.slug', { company: true, label: 'co.name' }),
  d('company_industry', 'scalar', 'co.industry_key', { company: true }),
  d('company_size', 'scalar', 'co.size_range', { company: true }),
];

export const DIMENSION_NAMES: readonly string[] = DIMENSIONS.map((x) => x.name);

const byName = new Map(DIMENSIONS.map((x) => [x.name, x]));

/** The dimension of that name, or undefined. */
export const dimension = (name: string): Dimension | undefined => byName.get(name);
