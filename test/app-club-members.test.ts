import { describe, expect, it } from 'vitest';
import { ClubMembers, CURRENT_MEMBERS_TTL_MS } from '../src/app/club.js';
import type { GuildEventor } from '../src/app/eventor-access.js';
import type { EventorClient } from '../src/eventor/client.js';
import type { Person } from '../src/eventor/model.js';

/** A club's Eventor whose `persons` answer the test controls, counting the calls that bypass the client's cache. */
function fakeEventor(members: () => Person[]): {
  eventor: GuildEventor;
  freshCalls: () => number;
  cachedCalls: () => number;
} {
  let fresh = 0;
  let cached = 0;
  const client = {
    call: async (name: string, _params: unknown, options: { fresh?: boolean } = {}) => {
      expect(name).toBe('persons');
      if (options.fresh) fresh += 1;
      else cached += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return members();
    },
  } as unknown as EventorClient;
  const eventor = {
    client,
    organisationId: '42',
    organisationName: 'Club',
    instance: { baseUrl: 'http://127.0.0.1:1/api' },
    lastAnswer: () => null,
  } as unknown as GuildEventor;
  return { eventor, freshCalls: () => fresh, cachedCalls: () => cached };
}

const person = (id: string, given: string): Person =>
  ({ id, name: { given, family: 'Testsson' }, roles: [], organisationId: '42', birthDate: null }) as unknown as Person;

describe('ClubMembers: the current member list before acting as a person', () => {
  it('a burst of checks shares one fetch of the member list; after the minute it is fetched afresh', async () => {
    let clock = Date.parse('2026-05-01T10:00:00Z');
    let list = [person('1', 'Astrid'), person('2', 'Sven')];
    const { eventor, freshCalls, cachedCalls } = fakeEventor(() => list);
    const members = new ClubMembers({ now: () => new Date(clock) });
    const found = await Promise.all([
      members.member(eventor, '1', { current: true }),
      members.member(eventor, '2', { current: true }),
      members.member(eventor, '1', { current: true }),
    ]);
    expect(found.map((p) => p?.id)).toEqual(['1', '2', '1']);
    expect(freshCalls()).toBe(1);
    // Within the minute, still the one fetch: someone who just left is still in it.
    list = [person('2', 'Sven')];
    clock += CURRENT_MEMBERS_TTL_MS - 1_000;
    expect((await members.member(eventor, '1', { current: true }))?.id).toBe('1');
    expect(freshCalls()).toBe(1);
    // Past it, Eventor is asked again and the member who left is gone.
    clock += 2_000;
    expect(await members.member(eventor, '1', { current: true })).toBeNull();
    expect(freshCalls()).toBe(2);
    // Lookups for names use the client's own (day-long) cache, never a fresh fetch.
    expect(await members.memberName(eventor, '2')).toBe('Sven Testsson');
    expect(freshCalls()).toBe(2);
    expect(cachedCalls()).toBe(1);
  });

  it('keeps the list per Eventor client (so per key): another key fetches its own', async () => {
    const members = new ClubMembers({ now: () => new Date('2026-05-01T10:00:00Z') });
    const first = fakeEventor(() => [person('1', 'Astrid')]);
    const second = fakeEventor(() => []);
    expect((await members.member(first.eventor, '1', { current: true }))?.id).toBe('1');
    expect(await members.member(second.eventor, '1', { current: true })).toBeNull();
    expect([first.freshCalls(), second.freshCalls()]).toEqual([1, 1]);
  });
});
