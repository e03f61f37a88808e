// What an ingestion did: counts and the rejected records with their reasons.

export interface Rejection {
  line?: number;
  id?: string;
  reason: string;
}

export interface IngestReport {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: Rejection[];
  expired: number;
  folded: number;
}

export const emptyReport = (): IngestReport => ({
  inserted: 0,
  updated: 0,
  unchanged: 0,
  rejected: [],
  expired: 0,
  folded: 0,
});

export function addReports(a: IngestReport, b: IngestReport): IngestReport {
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
    rejected: [...a.rejected, ...b.rejected],
    expired: a.expired + b.expired,
    folded: a.folded + b.folded,
  };
}
