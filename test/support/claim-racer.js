// One process racing for the ledger's claims (test/cli/claim-processes.test.ts): opens the store on
// PostgreSQL from the built program, says "ready", waits for "go" on standard input, then claims
// items 0..count-1 in order as `owner` and prints the indexes it won as JSON.
import { createInterface } from 'node:readline';
import { openPostgresStore } from '../../dist/src/store/postgres/store.js';
import { SecretBox } from '../../dist/src/store/secrets.js';

const [url, owner, count] = process.argv.slice(2);
const store = await openPostgresStore(url, new SecretBox('a-test-secret-key-that-is-long-enough'));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
const won = [];
for (let i = 0; i < Number(count); i++) {
  const ref = { guildId: 'g1', feed: 'results', itemKey: `item-${i}` };
  if (await store.ledger.claim(ref, owner, 600_000, () => true)) won.push(i);
}
await store.close();
process.stdout.write(`${JSON.stringify(won)}\n`);
