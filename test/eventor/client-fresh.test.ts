import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock } from '../support/clock.js';

describe('fresh reads', () => {
  let sandbox: SandboxEventor;
  let client: EventorClient;
  beforeAll(async () => {
    sandbox = await startSandboxEventor({ seed: 3, now: runningTestClock().now });
    client = new EventorClient({ instance: customInstance(sandbox.baseUrl), apiKey: sandbox.apiKey });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('asks Eventor again when told to, and keeps the new answer for the next cached read', async () => {
    const params = { organisationId: sandbox.dataset.homeClub.id };
    const path = '/api/competitors';
    const before = sandbox.requests.count(path);
    await client.competitors(params);
    await client.competitors(params);
    expect(sandbox.requests.count(path)).toBe(before + 1);
    const fresh = await client.callWithMeta('competitors', params, { fresh: true });
    expect(fresh.meta.fromCache).toBe(false);
    expect(sandbox.requests.count(path)).toBe(before + 2);
    const cached = await client.callWithMeta('competitors', params);
    expect(cached.meta.fromCache).toBe(true);
    expect(sandbox.requests.count(path)).toBe(before + 2);
  });
});
