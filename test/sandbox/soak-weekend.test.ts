import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { fetchCalendarEvents } from '../../src/feeds/kinds/calendar/calendar.js';
import { fetchReminderEvents } from '../../src/feeds/kinds/reminders/reminders.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { shardOf } from '../../harness/sandbox/discord/index.js';
import { Snowflakes } from '../../harness/sandbox/discord/ids.js';
import { guildIds } from '../../harness/soak/main.js';
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

/**
 * What the soak stages for the reminders, the races in Events and members' DMs, checked against the
 * product's own fetches over HTTP: the staged deadline is what the reminders feed reads, the clubs
 * the soak expects a reminder for are exactly those whose feed sees the event, and the calendar's
 * races are the ones the soak counts.
 */
describe("the soak's reminders, races in Events and members' DMs", () => {
  const DAY = 86_400_000;
  let eventor: SandboxEventor;
  let weekend: RaceWeekend;
  const now = testNow().getTime();
  const client = (clubId: string): EventorClient =>
    new EventorClient({
      instance: customInstance(eventor.baseUrl),
      apiKey: eventor.dataset.clubs.find((c) => c.id === clubId)!.apiKey,
    });

  beforeAll(async () => {
    eventor = await startSandboxEventor({ port: 0, seed: 1, now: testNow() });
    weekend = new RaceWeekend(eventor.dataset, 6, now);
  });
  afterAll(async () => {
    await eventor.close();
  });

  it('a staged deadline is the only one of its event, a day after the reminder falls due, seen by exactly the clubs expected', async () => {
    const offset = 45 * 60_000;
    // The processes' clock is `offset` ahead: their deadline is a day after `dueAt` on theirs.
    const deadlineAt = now + offset + 5 * 60_000 + DAY;
    const staged = weekend.stageDeadlines(deadlineAt, offset, now);
    expect(staged.length).toBeGreaterThanOrEqual(3);
    expect(new Set(staged.map((d) => d.eventId)).size).toBe(staged.length);
    for (const d of staged) expect(d.dueAt).toBe(Math.floor(deadlineAt / 1000) * 1000 - DAY - offset);
    for (const club of weekend.clubs) {
      const { events } = await fetchReminderEvents(client(club.id), club.id, new Date(now));
      for (const d of staged) {
        const seen = events.find((e) => e.id === d.eventId);
        expect(seen !== undefined, `club ${club.id}, event ${d.eventId}`).toBe(d.clubIds.includes(club.id));
        if (seen)
          expect(seen.entryDeadlines).toEqual([
            new Date(Math.floor(deadlineAt / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
          ]);
      }
    }
  });

  it("the calendar's races: every sure one is fetched by the club's feed, and everything it fetches is sure or maybe", async () => {
    for (const club of weekend.clubs) {
      const { sure, maybe } = weekend.calendarEvents(club.id, now);
      expect(sure.length).toBeGreaterThan(0);
      const { events } = await fetchCalendarEvents(client(club.id), club.id, [], new Date(now));
      const fetched = new Set(events.map((e) => e.id));
      for (const id of sure) expect(fetched.has(id), `club ${club.id}, event ${id}`).toBe(true);
      for (const id of fetched)
        expect(sure.includes(id) || maybe.includes(id), `club ${club.id}, event ${id}`).toBe(true);
    }
  });

  it("a member's result DM is expected once their race is out, and only then", () => {
    const runners = weekend.runners();
    expect(runners.length).toBeGreaterThan(0);
    const members = runners.map((r, i) => ({ personId: r.person.person.id!, channelId: `dm${i}` }));
    expect(weekend.expectedResultDms(members)).toEqual([]);
    for (let wave = 0; wave < 20 && weekend.waiting > 0; wave++) weekend.wave(2, () => 0, now + wave * 60_000);
    const expected = weekend.expectedResultDms(members);
    // Every runner was chosen for a result in a soak race: each has at least one DM, one per race.
    for (const m of members)
      expect(
        expected.some((p) => p.channelId === m.channelId),
        m.personId,
      ).toBe(true);
    expect(new Set(expected.map((p) => `${p.channelId} ${p.eventId}`)).size).toBe(expected.length);
    for (const p of expected) expect(p).toMatchObject({ kind: 'dms' });
  });
});

describe("the soak's server ids", () => {
  it('take each process in turn, and are never an id the sandbox Discord makes for anything else', () => {
    const at = testNow().getTime();
    const ids = guildIds(12, 3, at);
    expect(ids).toHaveLength(12);
    expect(ids.map((id) => shardOf(id, 3))).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    // The sandbox's snowflakes of the same moment and after (users, roles, channels made next).
    let clock = at - 10;
    const snowflakes = new Snowflakes(() => clock);
    const made = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      if (i % 100 === 0) clock += 1;
      made.add(snowflakes.next());
    }
    for (const id of ids) expect(made.has(id), id).toBe(false);
  });
});
