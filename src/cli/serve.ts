export async function run(_args: string[]): Promise<number> {
  await import('../main.ts');
  return 0;
}
