/**
 * What members are told when something goes wrong: a member's own mistake is
 * told to them alone, a lost acknowledgement still ends in an answer, and Eventor's refusals on
 * lists are named for what they are. Real bot, sandbox Discord over a real WebSocket, sandbox
 * Eventor over HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CallbackType, type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 15_000 };

function text(message: MessageView): string {
  return renderMessageText(message).replace(/\\(.)/g, '$1');
}

describe('what members are told', () => {
  let world: LoopbackWorld;

  const invoke = (name: string, options: Record<string, string | number> = {}, locale: 'en-GB' | 'sv-SE' = 'en-GB') =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: locale === 'sv-SE' ? world.swedishMember : world.member,
      locale,
      name,
      options,
    });

  /** What everyone in the channel sees (no ephemeral messages, no deleted ones). */
  const channelTexts = () => world.discord.messages(world.channel.id).map(text);

  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterEach(() => {
    world.discord.faults.clear();
    world.eventor.faults.clear();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('a typo in an option of a public command is told to the member alone; the channel keeps no placeholder', async () => {
    const before = channelTexts();
    const handle = invoke('events', { from: '2026-13-45' });
    // The date is read before anything waits, so the message is the first answer itself, privately:
    // the channel never gets a public "thinking…" placeholder (docs/decisions/first-answer.md: an
    // answer ready without waiting is sent at once; before, a public deferral was deleted and a
    // follow-up sent).
    const notice = await handle.answer(WAIT);
    expect(notice.ephemeral).toBe(true);
    expect(text(notice)).toContain('2026-13-45');
    expect(text(notice)).toMatch(/date/i);
    expect(handle.responseType).toBe(CallbackType.ChannelMessageWithSource);
    expect(handle.history().some((event) => event.kind === 'callback' && event.type !== 4)).toBe(false);
    expect(channelTexts()).toEqual(before);
  });

  it('the same in Swedish', async () => {
    const before = channelTexts();
    const handle = invoke('events', { from: 'igår' }, 'sv-SE');
    const notice = await handle.answer(WAIT);
    expect(notice.ephemeral).toBe(true);
    expect(text(notice)).toContain('igår');
    expect(text(notice)).toMatch(/datum/i);
    expect(channelTexts()).toEqual(before);
  });

  it('a failure that concerns everyone (Eventor down) stays in the public answer', async () => {
    world.eventor.faults.add({ path: '/api/events', kind: 'status', status: 503 });
    const handle = invoke('events', { days: 3, from: '2031-05-01' });
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(false);
    expect(reply.deleted).toBe(false);
    expect(text(reply)).toMatch(/Eventor/);
    expect(handle.followUps()).toEqual([]);
  });

  it('when the answer to the deferral is lost and the retry meets 40060, the member still gets their answer', async () => {
    world.discord.faults.loseAnswer({ route: 'POST /interactions/:interactionId/:token/callback', times: 1 });
    const handle = invoke('events', { days: 3, from: '2031-05-01' });
    const reply = await handle.reply(WAIT);
    expect(world.discord.faults.pending()).toBe(0);
    // discord.js sent the deferral again and was told it had already arrived.
    expect(handle.history().some((event) => event.kind === 'rejected' && event.code === 40060)).toBe(true);
    expect(reply.loading).toBe(false);
    expect(reply.ephemeral).toBe(false);
    expect(text(reply)).toMatch(/event/i);
    expect(text(reply)).not.toMatch(/went wrong/i);
  });

  it('the same for a private command (/status)', async () => {
    world.discord.faults.loseAnswer({ route: 'POST /interactions/:interactionId/:token/callback', times: 1 });
    const status = await invoke('status').reply(WAIT);
    expect(status.ephemeral).toBe(true);
    expect(status.loading).toBe(false);
    expect(text(status)).toMatch(/Eventor/);
  });

  it('the same for a page button whose deferred update lost its answer: the page still turns', async () => {
    const list = await invoke('events', { days: 365, level: 'all' }).reply(WAIT);
    expect(text(list)).toMatch(/Page 1 of [2-9]/);
    const next = list.components
      .flatMap(
        (row) =>
          (row.components ?? []) as Array<{ type: number; custom_id?: string; label?: string; disabled?: boolean }>,
      )
      .find((c) => c.type === 2 && c.label === 'Next' && !c.disabled);
    expect(next?.custom_id).toBeDefined();
    world.discord.faults.loseAnswer({ route: 'POST /interactions/:interactionId/:token/callback', times: 1 });
    const click = world.discord.clickButton({ message: list.id, customId: next!.custom_id!, user: world.member });
    const turned = await click.reply(WAIT);
    expect(world.discord.faults.pending()).toBe(0);
    // The page comes from the cache, so the update is the first callback itself
    // (docs/decisions/first-answer.md), whose lost answer discord.js sends again: the page has turned
    // before that resend meets 40060.
    await world.discord.waitFor(
      () => click.history().some((event) => event.kind === 'rejected' && event.code === 40060),
      WAIT,
    );
    expect(click.history().some((event) => event.kind === 'rejected' && event.code === 40060)).toBe(true);
    expect(turned.id).toBe(list.id);
    expect(text(turned)).toMatch(/Page 2 of/);
  });
});

describe('Eventor refusing or not finding a list', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterEach(() => {
    world.eventor.faults.clear();
  });
  afterAll(async () => {
    await world?.close();
  });

  const invoke = (name: string, options: Record<string, string | number>, locale: 'en-GB' | 'sv-SE' = 'en-GB') =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: locale === 'sv-SE' ? world.swedishMember : world.member,
      locale,
      name,
      options,
    });

  it("a 401 on /events says the key lacks the rights, publicly (it concerns everyone), in the member's language", async () => {
    world.eventor.faults.add({ path: '/api/events', kind: 'status', status: 401 });
    const reply = await invoke('events', { days: 5, from: '2032-03-01' }).reply(WAIT);
    expect(reply.ephemeral).toBe(false);
    expect(reply.deleted).toBe(false);
    const body = text(reply);
    expect(body).not.toContain('went wrong');
    expect(body).toContain('API key');
    expect(body).toContain('rights');
    const swedish = text(await invoke('events', { days: 6, from: '2032-03-01' }, 'sv-SE').reply(WAIT));
    expect(swedish).toContain('behörighet');
  });

  it('a 404 on a list (/activities, /events) says Eventor has no such list, not that an event is missing', async () => {
    world.eventor.faults.add({ path: '/api/activities', kind: 'status', status: 404 });
    const activities = text(await invoke('activities', { from: '2032-04-01', to: '2032-04-20' }).answer(WAIT));
    expect(activities).not.toContain('could not find that event');
    expect(activities).not.toContain('activity');
    expect(activities).toContain('no such list');
    world.eventor.faults.add({ path: '/api/events', kind: 'status', status: 404 });
    const events = await invoke('events', { days: 7, from: '2032-03-01' }).reply(WAIT);
    expect(text(events)).not.toContain('could not find that event');
    expect(text(events)).toContain('no such list');
    expect(events.ephemeral).toBe(false);
  });

  it('a 404 on one event the member named is still "I could not find that event", told to them alone', async () => {
    const answer = await invoke('event', { event: '987650001' }).answer(WAIT);
    expect(answer.ephemeral).toBe(true);
    expect(text(answer)).toContain('I could not find that event in Eventor.');
  });
});

describe("/events when the club's district cannot be looked up", () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it("lists the club's own events and says the district is missing, instead of failing", async () => {
    const club = world.eventor.dataset.homeClub.id;
    const district = world.eventor.dataset.homeClub.organisation.parentId!;
    expect(district).toBeTruthy();
    // Eventor gives neither its list of organisations nor the district asked for by id.
    world.eventor.faults.add({ path: '/api/organisations', kind: 'status', status: 503 });
    world.eventor.faults.add({ path: `/api/organisation/${district}`, kind: 'status', status: 404 });
    const handle = world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      locale: 'en-GB',
      name: 'events',
      options: { days: 60 },
    });
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(false);
    expect(reply.deleted).toBe(false);
    const body = text(reply);
    expect(body).not.toContain('could not find that event');
    expect(body).toContain('Upcoming events');
    expect(body).toContain("only the club's own events");
    expect(world.eventor.requests.count(`/api/organisation/${district}`)).toBeGreaterThan(0);
    // The events asked for were the club's alone.
    const asked = world.eventor.requests.filter((request) => request.path.toLowerCase() === '/api/events');
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.at(-1)!.query['organisationIds']).toBe(club);
    // In Swedish too.
    const swedish = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.swedishMember,
        locale: 'sv-SE',
        name: 'events',
        options: { days: 60 },
      })
      .reply(WAIT);
    expect(text(swedish)).toContain('bara klubbens egna tävlingar');
  });
});

describe('wording against facts', () => {
  let world: LoopbackWorld;
  beforeAll(async () => {
    world = await startTestWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  const invoke = (name: string, options: Record<string, string | number>, locale: 'en-GB' | 'sv-SE' = 'en-GB') =>
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

  it('/entries for a past event nobody from the club entered says so in the past tense; an upcoming one still says "yet"', async () => {
    const club = world.eventor.dataset.homeClub.id;
    const fromClub = (ev: (typeof world.eventor.dataset.events)[number]) =>
      world.eventor.dataset
        .entriesAt(ev)
        .some((entry) =>
          entry.competitor
            ? entry.competitor.organisation?.id === club
            : (entry.team?.organisations ?? []).some((o) => o.id === club),
        );
    const now = world.eventor.now().getTime();
    const ended = (ev: (typeof world.eventor.dataset.events)[number]) =>
      Date.parse(ev.event.finish ?? ev.event.start ?? '') < now - 86_400_000;
    const past = world.eventor.dataset.events.find((ev) => ev.event.start !== null && ended(ev) && !fromClub(ev));
    const upcoming = world.eventor.dataset.events.find(
      (ev) => ev.event.start !== null && Date.parse(ev.event.start) > now + 86_400_000 && !fromClub(ev),
    );
    expect(past, 'the sandbox has a past event without club entries').toBeDefined();
    expect(upcoming, 'the sandbox has an upcoming event without club entries').toBeDefined();
    const before = text(await invoke('entries', { event: past!.event.id }));
    expect(before).toContain('Nobody from the club entered.');
    expect(before).not.toContain('yet');
    expect(text(await invoke('entries', { event: past!.event.id }, 'sv-SE'))).toContain(
      'Ingen från klubben anmälde sig.',
    );
    expect(text(await invoke('entries', { event: upcoming!.event.id }))).toContain(
      'Nobody from the club has entered yet.',
    );
  });

  it('/activities for a period with past days and no activities says "no activities in this period", not "upcoming"', async () => {
    const past = text(await invoke('activities', { from: '2001-01-01', to: '2001-01-31' }));
    expect(past).toContain('No activities in this period.');
    expect(past).not.toContain('upcoming');
    expect(text(await invoke('activities', { from: '2001-01-01', to: '2001-01-31' }, 'sv-SE'))).toContain(
      'Inga aktiviteter under den här perioden.',
    );
    const future = text(await invoke('activities', { from: '2098-01-01', to: '2098-01-31' }));
    expect(future).toContain('No upcoming activities.');
  });
});
