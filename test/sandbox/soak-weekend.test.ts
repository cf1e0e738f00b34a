import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { digestWhen, RaceWeekend } from '../../harness/soak/weekend.js';
import { testNow } from '../support/clock.js';

/**
 * The soak's race weekend (docs/decisions/soak.md): start lists and results hidden until the soak
 * publishes them, and what each server should get worked out from the sandbox's data. Read back
 * over HTTP as a club's bot asks for it.
 */
describe("the soak's race weekend", () => {
  let eventor: SandboxEventor;
  let weekend: RaceWeekend;
  const now = testNow().getTime();

  beforeAll(async () => {
    eventor = await startSandboxEventor({ port: 0, seed: 1, now: testNow() });
    weekend = new RaceWeekend(eventor.dataset, 3, now);
  });
  afterAll(async () => {
    await eventor.close();
  });

  const clubStarts = async (clubId: string, eventId: string): Promise<number> => {
    const club = eventor.dataset.clubs.find((c) => c.id === clubId)!;
    const client = new EventorClient({ instance: customInstance(eventor.baseUrl), apiKey: club.apiKey });
    const list = await client.organisationStarts({ organisationIds: [clubId], eventId });
    return list.classes.flatMap((c) => c.persons.filter((p) => p.organisation?.id === clubId)).length;
  };

  it('start lists come out when published, with the races of the first wave, and are expected for the clubs starting', async () => {
    const servers = weekend.clubs.map((club, i) => ({ clubId: club.id, channelId: `s${i}` }));
    expect(weekend.expectedStartLists(servers)).toEqual([]);
    const names = weekend.publishStartLists(2, now + 1_000);
    expect(names).toHaveLength(2);
    const expected = weekend.expectedStartLists(servers);
    expect(expected.length).toBeGreaterThan(0);
    for (const post of expected) {
      expect(post).toMatchObject({ kind: 'startlists', publishedAt: now + 1_000 });
      const clubId = servers.find((s) => s.channelId === post.channelId)!.clubId;
      expect(await clubStarts(clubId, post.eventId)).toBeGreaterThan(0);
    }
    // The same races' results come out with the first wave; a race after them shows neither yet.
    weekend.wave(2, () => 0, now + 2_000);
    const published = new Set(weekend.expected(servers).map((post) => post.eventId));
    expect([...published].sort()).toEqual([...new Set(expected.map((post) => post.eventId))].sort());
    weekend.wave(1, () => 0, now + 3_000);
    const third = weekend.expected(servers).find((post) => !published.has(post.eventId))!;
    const clubId = servers.find((s) => s.channelId === third.channelId)!.clubId;
    expect(await clubStarts(clubId, third.eventId)).toBe(0);
    expect(weekend.startLists).toBe(2);
  });

  it("the digest's day and time as /feeds digest takes them, in the server's zone", () => {
    // A Monday afternoon in Stockholm (UTC+1 in winter); midnight there is still Sunday in UTC.
    expect(digestWhen(Date.parse('2026-12-07T15:05:00Z'), 'Europe/Stockholm')).toEqual({ day: '1', time: '16:05' });
    expect(digestWhen(Date.parse('2026-12-06T23:00:00Z'), 'Europe/Stockholm')).toEqual({ day: '1', time: '00:00' });
    expect(digestWhen(Date.parse('2026-12-06T23:00:00Z'), 'UTC')).toEqual({ day: '7', time: '23:00' });
    expect(digestWhen(Date.parse('2026-07-01T12:30:00Z'), 'Europe/Stockholm')).toEqual({ day: '3', time: '14:30' });
  });
});
