export async function run(_args: string[]): Promise<number> {
  process.stderr.write('migrate: not available yet\n');
  return 2;
}
