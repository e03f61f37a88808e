// The crawler's sink in production: the ingestion pipeline on the database.
import type { Db } from '../../db/pool.ts';
import { expireMissingFromBoard } from '../expiry.ts';
import { ingestRecords } from '../pipeline.ts';
import type { CrawlSink } from './crawler.ts';

export function pipelineSink(db: Db): CrawlSink {
  return {
    ingestRecords: (records) => ingestRecords(db, records),
    expireMissingFromBoard: (board, seenIds) => expireMissingFromBoard(db, board, seenIds),
  };
}
