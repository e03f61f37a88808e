// The vocabularies of a job's history (GET /v1/jobs/{id}/history): why a job left the live population,
// and why a posting was judged a copy of another. Closed lists: the stored values and the API's.

/**
 * - `removed_from_source`: a whole-board load or crawl of its board no longer listed it.
 * - `valid_through_passed`: its `expires_at` (validThrough) passed.
 * - `source_marked_closed`: its source sent it marked closed (`gone`).
 * - `aged_out`: aged out by the service (the service does not age postings out today).
 */
export const EXPIRY_REASONS = [
  'removed_from_source',
  'valid_through_passed',
  'source_marked_closed',
  'aged_out',
] as const;
export type ExpiryReason = (typeof EXPIRY_REASONS)[number];

/**
 * - `same_url`: the same canonical URL.
 * - `same_employer_title_place`: the same employer, title and place (after normalisation), same title text.
 * - `near_identical_description`: the same employer, place and normalised title under another wording
 *   (a re-post), folded for its near-identical description.
 */
export const COPY_REASONS = ['same_url', 'same_employer_title_place', 'near_identical_description'] as const;
export type CopyReason = (typeof COPY_REASONS)[number];
