export async function main(argv: string[]): Promise<number> {
  process.stdout.write(`eventor-bot ${argv.join(' ')}\n`);
  return 0;
}
