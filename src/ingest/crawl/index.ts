export {
  type BoardReport,
  type CrawlOptions,
  Crawler,
  type CrawlSink,
  type CrawlState,
  DEFAULT_CRAWL,
} from './crawler.ts';
export { DEFAULT_HTTP, FetchError, HttpClient, type HttpOptions } from './http.ts';
export { MemorySink } from './memory-sink.ts';
export {
  type Board,
  type BoardEntry,
  loadRegistry,
  parseRegistry,
  RegistryError,
  toBoard,
} from './registry.ts';
export { DEFAULT_BASES } from './sources.ts';
