import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesPageId } from '../../commands/entries.js';
import { checkFilters, eventQuery } from '../../commands/events.js';
import { UserFacingError } from '../../src/bot/command.js';
import type { Event } from '../../src/eventor/model.js';
import { DISCORD_LIMITS, fitPayload } from '../../src/render/index.js';
import { pageWithButtons } from '../../src/render/paging.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { addDays, dayWindow, localToday } from '../../src/time/days.js';
import { startTestWorld } from '../support/test-world.js';

const TIME_ZONE = 'Europe/Stockholm';
const WAIT = { timeoutMs: 15_000 };

/** The reply as text, without the markdown escapes render adds to Eventor names. */
function text(message: MessageView): string {
  return renderMessageText(message).replace(/\\(.)/g, '$1');
}

function buttons(message: MessageView): Array<{ custom_id?: string; label?: string; disabled?: boolean }> {
  return message.components
    .flatMap(
      (row) =>
        (row.components ?? []) as Array<{ type: number; custom_id?: string; label?: string; disabled?: boolean }>,
    )
    .filter((c) => c.type === 2);
}

function selectId(message: MessageView): string {
  const select = message.components
    .flatMap((row) => (row.components ?? []) as Array<{ type: number; custom_id?: string }>)
    .find((c) => c.type === 3);
  expect(select?.custom_id).toBeDefined();
  return select!.custom_id!;
}

describe('/events, /event and /entries end to end', () => {
  let world: LoopbackWorld;
  let today: string;
  let area: Set<string>;

  const run = (name: string, options: Record<string, string | number> = {}, locale: 'en-GB' | 'sv-SE' = 'en-GB') =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: locale === 'sv-SE' ? world.swedishMember : world.member,
        locale,
        name,
        options,
      })
      .answer(WAIT);

  /** Upcoming events in [today, today + days - 1] organised in the club's district, by date. */
  const districtEvents = (days: number): SandboxEvent[] => {
    const window = dayWindow(today, addDays(today, days - 1), TIME_ZONE);
    const [from, to] = [Date.parse(window.from), Date.parse(window.to)];
    return world.eventor.dataset.events
      .filter((ev) => ev.event.start !== null && Date.parse(ev.event.start) >= from && Date.parse(ev.event.start) <= to)
      .filter((ev) => ev.event.organisers.some((o) => o.id !== null && area.has(o.id)))
      .sort((a, b) => Date.parse(a.event.start!) - Date.parse(b.event.start!));
  };

  /** The club's entries in an event, as the dataset has them. */
  const clubEntries = (ev: SandboxEvent) => {
    const club = world.eventor.dataset.homeClub.id;
    return world.eventor.dataset
      .entriesAt(ev)
      .filter((entry) =>
        entry.competitor
          ? entry.competitor.organisation?.id === club
          : (entry.team?.organisations ?? []).some((o) => o.id === club),
      );
  };

  const organiserName = (event: Event) => world.eventor.dataset.organisation(event.organisers[0]!.id!)!.name;

  /** An upcoming event, not cancelled, with entries from the club. */
  const upcomingWithEntries = (): SandboxEvent => {
    const now = world.eventor.now().getTime();
    const ev = world.eventor.dataset.events.find(
      (e) =>
        e.event.status !== 'canceled' &&
        e.event.start !== null &&
        Date.parse(e.event.start) > now &&
        Date.parse(e.event.start) < now + 50 * 86_400_000 &&
        clubEntries(e).length > 0,
    );
    expect(ev, 'the sandbox has an upcoming event with club entries').toBeDefined();
    return ev!;
  };

  beforeAll(async () => {
    world = await startTestWorld();
    today = localToday(world.eventor.now(), TIME_ZONE);
    const district = world.eventor.dataset.homeClub.organisation.parentId!;
    area = new Set([...world.eventor.dataset.expandOrganisation(district), world.eventor.dataset.homeClub.id]);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('registers the three commands with Swedish and Norwegian names', () => {
    const commands = world.discord.commands({ guildId: world.guild.id });
    const byName = new Map(commands.map((c) => [c.name, c]));
    expect(byName.get('events')?.name_localizations?.['sv-SE']).toBe('tävlingskalender');
    expect(byName.get('events')?.name_localizations?.no).toBe('terminliste');
    expect(byName.get('event')?.name_localizations?.['sv-SE']).toBe('tävling');
    expect(byName.get('entries')?.name_localizations?.no).toBe('påmeldinger');
    const level = byName.get('events')?.options?.find((o) => o.name === 'level');
    expect(level?.choices?.map((c) => c.value)).toContain('all');
  });

  it("/events lists the district's events with organiser, level and next entry deadline, in English", async () => {
    const expected = districtEvents(60);
    expect(expected.length).toBeGreaterThan(2);
    const reply = await run('events', { days: 60 });
    const body = text(reply);
    expect(reply.ephemeral).toBe(false);
    expect(body).toContain('Upcoming events');
    const first = expected[0]!;
    expect(body).toContain(first.event.name);
    expect(body).toContain(organiserName(first.event));
    expect(body).toContain(`${expected.length} events`);
    const open = expected.find(
      (ev) =>
        ev.event.status !== 'canceled' &&
        ev.event.entryDeadlines.some((d) => Date.parse(d) > world.eventor.now().getTime()),
    );
    if (open) {
      const deadline = open.event.entryDeadlines.find((d) => Date.parse(d) > world.eventor.now().getTime())!;
      expect(body).toContain(`<t:${Math.floor(Date.parse(deadline) / 1000)}:`);
    }
    // Events of other districts stay out of the default list.
    const elsewhere = world.eventor.dataset.events.filter(
      (ev) =>
        !expected.includes(ev) &&
        ev.event.start !== null &&
        Date.parse(ev.event.start) > world.eventor.now().getTime() + 86_400_000 &&
        Date.parse(ev.event.start) < world.eventor.now().getTime() + 50 * 86_400_000 &&
        !ev.event.organisers.some((o) => o.id !== null && area.has(o.id)),
    );
    for (const ev of elsewhere)
      expect(reply.components.length === 0 || !JSON.stringify(reply.components).includes(`"value":"${ev.id}"`)).toBe(
        true,
      );
  });

  it('/events by default covers the next 14 days', async () => {
    const expected = districtEvents(14);
    const body = text(await run('events'));
    if (expected.length === 0) expect(body).toContain('No upcoming events found.');
    else for (const ev of expected.slice(0, 10)) expect(body).toContain(ev.event.name);
  });

  it('/events answers in Swedish', async () => {
    const expected = districtEvents(60);
    const body = text(await run('events', { days: 60 }, 'sv-SE'));
    expect(body).toContain('Kommande tävlingar');
    expect(body).toContain(expected[0]!.event.name);
    expect(body).toContain(`${expected.length} tävlingar`);
    expect(body).toContain('Anmälan stänger');
  });

  it('/events pages with Next and Previous, updating the same message', async () => {
    const reply = await run('events', { days: 365, level: 'all' });
    const first = text(reply);
    expect(first).toMatch(/Page 1 of [2-9]/);
    const next = buttons(reply).find((b) => b.label === 'Next' && !b.disabled);
    expect(next?.custom_id).toBeDefined();
    expect(next!.custom_id!.length).toBeLessThanOrEqual(100);
    const second = await world.discord
      .clickButton({ message: reply.id, customId: next!.custom_id!, user: world.swedishMember })
      .reply(WAIT);
    expect(second.id).toBe(reply.id);
    const secondText = text(second);
    expect(secondText).toMatch(/Page 2 of/);
    expect(secondText).not.toBe(first);
    // The list keeps the language it was asked in, whoever pages it.
    expect(secondText).toContain('Upcoming events');
    const previous = buttons(second).find((b) => b.label === 'Previous' && !b.disabled);
    const back = await world.discord
      .clickButton({ message: reply.id, customId: previous!.custom_id!, user: world.member })
      .reply(WAIT);
    expect(text(back)).toMatch(/Page 1 of/);
    expect(text(back)).toBe(first);
  });

  it('picking an event in the list opens its card privately', async () => {
    const reply = await run('events', { days: 60 });
    const ev = districtEvents(60)[0]!;
    const card = await world.discord
      .selectMenu({ message: reply.id, customId: selectId(reply), values: [ev.id], user: world.member })
      .reply(WAIT);
    expect(card.ephemeral).toBe(true);
    expect(card.id).not.toBe(reply.id);
    const body = text(card);
    expect(body).toContain(ev.event.name);
    expect(body).toContain('Open in Eventor');
  });

  it('/events filters by level and by organiser', async () => {
    const national = text(await run('events', { days: 365, level: 'national' }));
    const expected = world.eventor.dataset.events.find(
      (ev) =>
        ev.event.classification === 'national' &&
        ev.event.start !== null &&
        Date.parse(ev.event.start) > world.eventor.now().getTime() + 86_400_000,
    );
    expect(national).toContain(expected!.event.name);
    expect(national).toContain('National event');
    expect(national).not.toContain('Club event');

    const organiser = world.eventor.dataset.clubs[1]!;
    const own = world.eventor.dataset.events.filter(
      (ev) =>
        ev.event.start !== null &&
        Date.parse(ev.event.start) > world.eventor.now().getTime() + 86_400_000 &&
        ev.event.organisers.some((o) => o.id === organiser.id),
    );
    const body = text(await run('events', { days: 365, organiser: organiser.id }));
    if (own.length === 0) expect(body).toContain('No upcoming events found.');
    else expect(body).toContain(own[0]!.event.name);
  });

  it('autocompletes organisers by name, at most 25', async () => {
    const club = world.eventor.dataset.homeClub;
    const word = club.name.split(' ')[0]!.slice(0, 6).toLowerCase();
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'events',
      focused: 'organiser',
      value: word,
      ...WAIT,
    });
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.length).toBeLessThanOrEqual(25);
    expect(choices.map((c) => c.value)).toContain(club.id);
    const all = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'events',
      focused: 'organiser',
      value: '',
      ...WAIT,
    });
    expect(all.length).toBeLessThanOrEqual(25);
    expect(all.some((c) => String(c.name).includes('(district)'))).toBe(true);
  });

  it('takes an organiser typed by name instead of picked, and names one it cannot find', async () => {
    const organiser = world.eventor.dataset.clubs[1]!;
    const picked = text(await run('events', { days: 365, organiser: organiser.id }));
    const typed = text(await run('events', { days: 365, organiser: organiser.name.toLowerCase() }));
    expect(typed).toBe(picked);
    expect(text(await run('events', { organiser: 'Ingen Sådan Klubb' }))).toContain(
      'I could not find the organiser "Ingen Sådan Klubb"',
    );
    expect(text(await run('events', { organiser: 'Ingen Sådan Klubb' }, 'sv-SE'))).toContain(
      'Jag hittade inte arrangören',
    );
  });

  it("offers the club's own district first when nothing is typed", async () => {
    const district = world.eventor.dataset.homeClub.organisation.parentId!;
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'events',
      focused: 'organiser',
      value: '',
      ...WAIT,
    });
    const home = [district, world.eventor.dataset.homeClub.id];
    expect(
      choices
        .slice(0, 2)
        .map((c) => c.value)
        .sort(),
    ).toEqual([...home].sort());
    expect(
      choices
        .slice(0, area.size)
        .map((c) => c.value)
        .sort(),
    ).toEqual([...area].sort());
  });

  it('answers in Norwegian for a Norwegian Discord client', async () => {
    const ev = upcomingWithEntries();
    const list = text(
      await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: world.member,
          locale: 'no',
          name: 'events',
          options: { days: 60 },
        })
        .reply(WAIT),
    );
    expect(list).toContain('Kommende løp');
    const entries = text(
      await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: world.member,
          locale: 'no',
          name: 'entries',
          options: { event: ev.id },
        })
        .reply(WAIT),
    );
    expect(entries).toContain(`Påmeldte fra klubben: ${clubEntries(ev).length}`);
  });

  it("refuses a bad from date with the expected form, in the member's language", async () => {
    const english = text(await run('events', { from: '2026-13-45' }));
    expect(english).toContain('YYYY-MM-DD');
    expect(english).toContain('2026-13-45');
    const swedish = text(await run('events', { from: 'i morgon' }, 'sv-SE'));
    expect(swedish).toContain('ÅÅÅÅ-MM-DD');
    expect(swedish).toContain('inget datum');
    const mention = await run('events', { from: '@everyone **1**' });
    expect(mention.content + JSON.stringify(mention.embeds)).not.toContain('@everyone');
  });

  it("checks days and dates itself, behind Discord's min and max", () => {
    const base = { from: null, level: null, today: '2026-11-22' };
    expect(() => checkFilters({ ...base, days: 0 })).toThrow(UserFacingError);
    expect(() => checkFilters({ ...base, days: 366 })).toThrow(UserFacingError);
    expect(() => checkFilters({ ...base, days: 2.5 })).toThrow(UserFacingError);
    expect(checkFilters({ ...base, days: null })).toEqual({ from: '2026-11-22', days: 14, level: null });
    expect(checkFilters({ ...base, days: 365, from: '2027-02-28', level: 'club' })).toEqual({
      from: '2027-02-28',
      days: 365,
      level: 'club',
    });
    // Local whole days: the window of a Stockholm day starts at 23:00 UTC the day before.
    const query = eventQuery(
      { from: '2026-11-22', days: 1, level: 'national', organiserId: null },
      ['11', '101'],
      TIME_ZONE,
    );
    expect(query).toEqual({
      fromDate: '2026-11-21T23:00:00Z',
      toDate: '2026-11-22T22:59:59Z',
      classificationIds: ['2'],
      includeEntryBreaks: true,
    });
    expect(
      eventQuery({ from: '2026-11-22', days: 14, level: null, organiserId: null }, ['11', '101'], TIME_ZONE)
        .organisationIds,
    ).toEqual(['11', '101']);
  });

  it("/event shows the card: organiser, deadlines, classes, fees, documents, the club's entries", async () => {
    const ev = upcomingWithEntries();
    const reply = await run('event', { event: ev.id });
    const body = text(reply);
    expect(reply.ephemeral).toBe(false);
    expect(body).toContain(ev.event.name);
    expect(body).toContain(organiserName(ev.event));
    expect(body).toContain(`<t:${Math.floor(Date.parse(ev.event.entryDeadlines[0]!) / 1000)}:`);
    const firstClass = world.eventor.dataset.details(ev).classes[0]!;
    expect(body).toContain(firstClass.shortName ?? firstClass.name);
    expect(body).toContain(ev.fees[0]!.name);
    expect(body).toContain(ev.documents[0]!.name);
    expect(body).toContain(`Entered from the club: ${clubEntries(ev).length}`);
    expect(body).toContain('openstreetmap.org');
    expect(body).toContain(`/Events/Show/${ev.id}`);
  });

  it('/event answers in Swedish', async () => {
    const ev = upcomingWithEntries();
    const body = text(await run('event', { event: ev.id }, 'sv-SE'));
    expect(body).toContain(ev.event.name);
    expect(body).toContain(`Anmälda från klubben: ${clubEntries(ev).length}`);
    expect(body).toContain('Öppna i Eventor');
  });

  it('autocompletes events by a word of their name, at most 25', async () => {
    const ev = upcomingWithEntries();
    const word = ev.event.name.split(' ')[0]!;
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'event',
      focused: 'event',
      value: word,
      ...WAIT,
    });
    expect(choices.length).toBeGreaterThan(0);
    expect(choices.length).toBeLessThanOrEqual(25);
    expect(choices.every((c) => String(c.name).toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(choices.map((c) => c.value)).toContain(ev.id);
  });

  it('says it cannot find an event typed by hand that does not exist', async () => {
    expect(text(await run('event', { event: '999999' }))).toContain('I could not find that event in Eventor.');
    expect(text(await run('event', { event: 'no such thing at all' }))).toContain(
      'I could not find that event in Eventor.',
    );
    expect(text(await run('event', { event: '999998' }, 'sv-SE'))).toContain(
      'Jag hittade inte den tävlingen i Eventor.',
    );
    expect(text(await run('entries', { event: '999997' }))).toContain('I could not find that event in Eventor.');
  });

  it("/entries <event> lists who has entered, by class, with the club's count", async () => {
    const ev = upcomingWithEntries();
    const entries = clubEntries(ev);
    const body = text(await run('entries', { event: ev.id }));
    expect(body).toContain(`Entered from the club: ${entries.length}`);
    const entry = entries.find((e) => e.competitor?.person) ?? entries[0]!;
    if (entry.competitor?.person) expect(body).toContain(entry.competitor.person.name.family);
    const classes = world.eventor.dataset.details(ev).classes;
    const klass = classes.find((c) => c.id === entry.classIds[0]);
    expect(body).toContain(klass!.shortName ?? klass!.name);
    const swedish = text(await run('entries', { event: ev.id }, 'sv-SE'));
    expect(swedish).toContain(`Anmälda från klubben: ${entries.length}`);
  });

  it("/entries without an event counts the club's entries per upcoming event", async () => {
    const ev = upcomingWithEntries();
    const body = text(await run('entries'));
    expect(body).toContain("The club's entries");
    expect(body).toContain(ev.event.name);
    const line = body.split('\n').findIndex((l) => l.includes(ev.event.name));
    expect(body.split('\n')[line + 1]).toContain(`Entered: ${clubEntries(ev).length}`);
    const swedish = text(await run('entries', {}, 'sv-SE'));
    expect(swedish).toContain('Klubbens anmälningar');
    expect(swedish).toContain(`Anmälda: ${clubEntries(ev).length}`);
  });

  it('asks Eventor once for repeated identical /events commands', async () => {
    const before = world.eventor.requests.count('/api/events');
    await run('events', { days: 33 });
    const after = world.eventor.requests.count('/api/events');
    expect(after).toBe(before + 1);
    await run('events', { days: 33 });
    await run('events', { days: 33 }, 'sv-SE');
    expect(world.eventor.requests.count('/api/events')).toBe(after);
  });

  it('logged no unexpected failure for any of the commands above', () => {
    const errors = world.logLines
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((line) => line.level === 'error');
    expect(errors).toEqual([]);
  });

  it('tells the member, in their language, when Eventor is not answering', async () => {
    world.eventor.faults.add({ path: '/api/events', kind: 'status', status: 503, times: 50 });
    try {
      // A window never asked before, so no cached answer can stand in.
      const english = await run('events', { from: addDays(today, 200), days: 7 });
      expect(text(english)).toContain('Eventor is not answering right now.');
      const swedish = await run('events', { from: addDays(today, 210), days: 7 }, 'sv-SE');
      expect(text(swedish)).toContain('Eventor svarar inte just nu.');
    } finally {
      world.eventor.faults.clear();
    }
    // And the bot is still there.
    expect(text(await run('events', { days: 60 }))).toContain('Upcoming events');
  }, 60_000);

  it('a page button that fails leaves the shared list as it was and tells only the member who clicked', async () => {
    const reply = await run('events', { days: 365, level: 'all' });
    const first = text(reply);
    const next = buttons(reply).find((b) => b.label === 'Next' && !b.disabled)!;
    // Discord refuses the update of the list once (after the test that no command logged a failure).
    // The page is in the cache, so the update is the first callback itself (docs/decisions/first-answer.md; before, a
    // deferred update and an edit of the message, where this refusal was injected, and the notice a
    // follow-up): the notice is then the first answer, privately.
    world.discord.faults.serverError({
      route: 'POST /interactions/:interactionId/:token/callback',
      times: 1,
      status: 400,
    });
    const click = world.discord.clickButton({
      message: reply.id,
      customId: next.custom_id!,
      user: world.swedishMember,
    });
    const notice = await click.reply(WAIT);
    expect(notice.ephemeral).toBe(true);
    expect(notice.id).not.toBe(reply.id);
    expect(text(world.discord.message(reply.id)!)).toBe(first);
  });
});

describe('page buttons under paged renders', () => {
  const ctx = { language: 'sv' as const, timeZone: TIME_ZONE, now: new Date(), webUrl: 'https://eventor.example' };
  const pages = [1, 2, 3].map((n) => fitPayload({ embeds: [{ title: `Sida ${n}` }] }));
  const ids = (n: number) => entriesPageId.encode({ page: n, eventId: '30001', from: '20261122', language: 'sv' });

  it('adds Previous and Next with distinct custom ids, the impossible one disabled', () => {
    const first = pageWithButtons(pages, 1, ctx.language, ids);
    expect(first.embeds?.[0]?.title).toBe('Sida 1');
    const row = first.components!.at(-1)!.components as Array<{ custom_id: string; label: string; disabled: boolean }>;
    expect(row.map((b) => [b.label, b.custom_id, b.disabled])).toEqual([
      ['Föregående', ids(1), true],
      ['Nästa', ids(2), false],
    ]);
    const last = pageWithButtons(pages, 9, ctx.language, ids);
    expect(last.embeds?.[0]?.title).toBe('Sida 3');
    const lastRow = last.components!.at(-1)!.components as Array<{ custom_id: string; disabled: boolean }>;
    expect(lastRow.map((b) => [b.custom_id, b.disabled])).toEqual([
      [ids(2), false],
      [ids(3), true],
    ]);
    expect(ids(3).length).toBeLessThanOrEqual(DISCORD_LIMITS.customId);
  });

  it('leaves a single page without buttons', () => {
    expect(pageWithButtons(pages.slice(0, 1), 1, ctx.language, ids).components).toBeUndefined();
  });
});
