// The state of a stored job (column jobs.state), one per population of the spec: live jobs are searched,
// expired ones stay retrievable by id for a while, folded duplicates never resolve. The numbers are the
// stored values (migration 1); SQL text uses them through these names.
export const JobState = { Live: 0, Expired: 1, Folded: 2 } as const;
export type JobState = (typeof JobState)[keyof typeof JobState];
