import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClubMembers } from '../../src/app/club.js';
import type { GuildEventor } from '../../src/club/eventor-access.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import type { SandboxClub } from '../../harness/sandbox/eventor/dataset.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock } from '../support/clock.js';

/**
 * The club's members as the bot asks for them: the real Eventor client against the sandbox
 * Eventor over HTTP, counting what the sandbox was asked.
 */
describe('ClubMembers: the member list, fetched afresh before acting as a person', () => {
  let sandbox: SandboxEventor;
  const clients: EventorClient[] = [];

  beforeAll(async () => {
    sandbox = await startSandboxEventor({ seed: 5, now: runningTestClock().now });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await sandbox?.close();
  });

  const eventorOf = (club: SandboxClub): GuildEventor => {
    const instance = customInstance(sandbox.baseUrl);
    const client = new EventorClient({ instance, apiKey: club.apiKey });
    clients.push(client);
    return { client, instance, organisationId: club.id, organisationName: club.name, lastAnswer: () => null };
  };
  const asked = (club: SandboxClub): number => sandbox.requests.count(`/api/persons/organisations/${club.id}`);

  it('a burst of fresh checks shares one fetch; the next check asks again, so who was just removed is gone', async () => {
    const club = sandbox.dataset.homeClub;
    const eventor = eventorOf(club);
    const members = new ClubMembers();
    const [first, second] = club.members.map((m) => m.person.id!) as [string, string];
    const before = asked(club);
    const found = await Promise.all([
      members.member(eventor, first, { fresh: true }),
      members.member(eventor, second, { fresh: true }),
      members.member(eventor, first, { fresh: true }),
    ]);
    expect(found.map((p) => p?.id)).toEqual([first, second, first]);
    // One request: concurrent identical fetches are coalesced by the client's transport.
    expect(asked(club)).toBe(before + 1);
    // Removed from the club in Eventor a moment later: the very next fresh check knows it.
    const index = club.members.findIndex((m) => m.person.id === first);
    const [removed] = club.members.splice(index, 1);
    try {
      expect(await members.member(eventor, first, { fresh: true })).toBeNull();
      expect(asked(club)).toBe(before + 2);
      // Lookups for names use the client's own (day-long) cache, which the fresh fetch renewed.
      expect(await members.memberName(eventor, first)).toBeNull();
      expect(await members.memberName(eventor, second)).not.toBeNull();
      expect(asked(club)).toBe(before + 2);
    } finally {
      club.members.splice(index, 0, removed!);
    }
  });

  it("keeps the list per Eventor key: another club's key fetches its own, without the first club's members", async () => {
    const [home, other] = sandbox.dataset.clubs as [SandboxClub, SandboxClub];
    const members = new ClubMembers();
    const personId = home.members[0]!.person.id!;
    const [homeBefore, otherBefore] = [asked(home), asked(other)];
    expect((await members.member(eventorOf(home), personId, { fresh: true }))?.id).toBe(personId);
    expect(await members.member(eventorOf(other), personId, { fresh: true })).toBeNull();
    expect([asked(home), asked(other)]).toEqual([homeBefore + 1, otherBefore + 1]);
  });
});
