import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold } from '../../src/text/fold.js';
import { activityChoices, classChoices, eventChoices, memberChoices } from '../../src/bot/lookup.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

describe('autocomplete lookups against the sandbox Eventor', () => {
  let sandbox: SandboxEventor;
  let client: EventorClient;
  const now = new Date('2026-11-22T12:00:00Z');
  beforeAll(async () => {
    sandbox = await startSandboxEventor({ seed: 1, now });
    client = new EventorClient({ instance: customInstance(sandbox.baseUrl), apiKey: sandbox.apiKey });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('folds case and Nordic letters', () => {
    expect(fold('Öjaberget Hällmyren Løp')).toBe('ojaberget hallmyren lop');
  });

  it('finds events by words of their name, nearest first, at most 25, and asks Eventor once', async () => {
    const all = await eventChoices(client, '', now, 'Europe/Stockholm');
    expect(all.length).toBeGreaterThan(0);
    expect(all.length).toBeLessThanOrEqual(25);
    const target = sandbox.dataset.events.find((e) => /[åäöÅÄÖ]/.test(e.name))!;
    const word = fold(target.name.split(' ')[0]!);
    const before = sandbox.requests.count('/api/events');
    const found = await eventChoices(client, word, now, 'Europe/Stockholm');
    expect(found.some((c) => c.value === target.id)).toBe(true);
    expect(found.every((c) => fold(c.name).includes(word))).toBe(true);
    expect(found.every((c) => c.name.length <= 100)).toBe(true);
    expect(sandbox.requests.count('/api/events')).toBe(before);
  });

  it('finds club members, classes and activities', async () => {
    const club = sandbox.dataset.homeClub;
    const members = await memberChoices(client, club.id, '');
    expect(members.length).toBe(Math.min(25, sandbox.dataset.persons.filter((p) => p.clubId === club.id).length));
    const someone = sandbox.dataset.persons.find((p) => p.clubId === club.id)!.person;
    const byName = await memberChoices(client, club.id, `${someone.name.given} ${someone.name.family}`);
    expect(byName.some((c) => c.value === someone.id)).toBe(true);

    const event = sandbox.dataset.events.find((e) => sandbox.dataset.hasResults(e.id))!;
    const classes = await classChoices(client, event.id, '');
    expect(classes.length).toBeGreaterThan(0);

    const activities = await activityChoices(client, club.id, '', now);
    expect(Array.isArray(activities)).toBe(true);
    expect(activities.length).toBeGreaterThan(0);
  });
});
