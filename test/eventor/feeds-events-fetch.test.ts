/**
 * The new-events feed's fetch against the sandbox Eventor: the client's answers are frozen and
 * shared, so the feed builds its list on a copy (it used to push onto the client's answer).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { fetchChangedEvents } from '../../src/feeds/kinds/events/events.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

const NOW = new Date('2026-05-15T10:00:00Z');
let sandbox: SandboxEventor;
let client: EventorClient;

beforeAll(async () => {
  sandbox = await startSandboxEventor({ port: 0, seed: 7, now: NOW });
  client = new EventorClient({ instance: customInstance(sandbox.baseUrl), apiKey: sandbox.apiKey });
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

it("adds the events of the chosen levels to the club's own without changing the client's answer", async () => {
  const since = NOW.getTime() - 365 * 24 * 3_600_000;
  const own = await fetchChangedEvents(client, sandbox.dataset.homeClub.id, [], since, NOW);
  const withNational = await fetchChangedEvents(client, sandbox.dataset.homeClub.id, ['2'], since, NOW);
  const national = withNational.slice(own.length);
  expect(national.length).toBeGreaterThan(0);
  expect(national.every((event) => event.classification === 'national')).toBe(true);
  expect(withNational.slice(0, own.length)).toEqual(own);
  // The club's own list as the client caches it is unchanged: asked again, it is what it was.
  expect(await fetchChangedEvents(client, sandbox.dataset.homeClub.id, [], since, NOW)).toEqual(own);
});
