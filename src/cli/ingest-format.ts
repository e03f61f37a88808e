// ingest --format ADAPTER <file|dir>: saved source payloads through the adapters and the same pipeline.
export async function run(format: string, _paths: string[]): Promise<number> {
  process.stderr.write(`ingest --format ${format}: not available yet\n`);
  return 2;
}
