/**
 * /next end to end: the real bot (real discord.js) against the sandbox Discord and the sandbox
 * Eventor over HTTP, on a controllable clock: the member's next races, privately, with the login
 * button; the start time once the start list is out (the refresh button); linked family members;
 * and the few Eventor requests it costs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/index.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { LOGIN_BUTTON_ID } from '../../src/render/login-button.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { upcomingClubEventWithoutStartList } from '../support/sandbox-events.js';

const WAIT = { timeoutMs: 10_000 };
const MINUTE = 60_000;

describe('/next (sandbox Eventor, real discord.js, sandbox Discord, controllable clock)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let upcoming: SandboxEvent;
  /** Two club runners entered in the upcoming event: the member's own person and a child. */
  let runner: string;
  let child: string;
  const name = (personId: string): string => {
    const person = world.eventor.dataset.person(personId)!.person;
    return `${person.name.given} ${person.name.family}`;
  };

  const next = (user: SandboxUser, locale = 'en-GB', options: Record<string, string> = {}): InteractionHandle =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user,
      locale,
      name: 'next',
      options,
    });
  const privateReply = async (handle: InteractionHandle): Promise<MessageView> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return reply;
  };
  /** The lines of one race in the answer: the block naming the event. */
  const blockOf = (text: string, eventName: string): string => {
    const block = text.split(/\n>? ?\n/).find((b) => b.includes(eventName));
    expect(block, eventName).toBeDefined();
    return block!;
  };
  const customIds = (message: MessageView): string[] =>
    (message.components ?? []).flatMap((row) =>
      (row.components ?? []).map((c) => ('custom_id' in c ? String(c.custom_id) : '')),
    );

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    const home = world.eventor.dataset.homeClub.id;
    upcoming = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
    const entrants = world.eventor.dataset
      .entriesAt(upcoming)
      .filter((e) => e.competitor?.organisation?.id === home && e.competitor.personId !== null)
      .map((e) => e.competitor!.personId!)
      .filter((id) => world.eventor.dataset.person(id) !== undefined);
    expect(entrants.length).toBeGreaterThanOrEqual(2);
    [runner, child] = [entrants[0]!, entrants[1]!];
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, runner, 'credentials');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('registers /next with Swedish and Norwegian names', () => {
    const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'next');
    expect(command).toBeDefined();
    expect(command!.name_localizations?.['sv-SE']).toBe('nästa');
    expect(command!.name_localizations?.no).toBe('neste');
  });

  it('needs a linked person, and asks Eventor nothing without one', async () => {
    const before = world.eventor.requests.count();
    const reply = await privateReply(next(world.swedishMember, 'sv-SE'));
    expect(renderMessageText(reply)).toContain(t('sv', 'error.notLinked').slice(0, 30));
    expect(world.eventor.requests.count()).toBe(before);
  });

  it("shows the member's entered race privately, with class, no start time yet and the login button", async () => {
    world.eventor.requests.clear();
    const reply = await privateReply(next(world.member));
    const text = renderMessageText(reply);
    expect(text).toContain('Your next races');
    const block = blockOf(text, upcoming.event.name.trim());
    expect(block).toContain('start time not out yet');
    expect(block).toMatch(/Class \*\*[^*]+\*\*/);
    expect(customIds(reply)).toContain(LOGIN_BUTTON_ID);
    // One entries request for the club, one events request, the person's start lists, the member
    // list for the name, and the classes only of events whose start list is not out: nothing per race.
    const count = (path: string): number => world.eventor.requests.filter((r) => r.path.toLowerCase() === path).length;
    expect(count('/api/entries')).toBe(1);
    expect(count('/api/events')).toBe(1);
    expect(count('/api/starts/person')).toBe(1);
    expect(count('/api/persons/organisations/' + world.eventor.dataset.homeClub.id)).toBeLessThanOrEqual(1);
    const undrawn = new Set(
      [...text.matchAll(/Events\/Show\/(\d+)\)\*\*[^\n]*\n[^\n]*start time not out yet/g)].map((m) => m[1]),
    );
    expect(count('/api/eventclasses')).toBeLessThanOrEqual(undrawn.size);
    // Nothing else, but the connection's key check on its first use.
    const expected = [
      '/api/entries',
      '/api/events',
      '/api/starts/person',
      '/api/eventclasses',
      '/api/organisation/apikey',
    ];
    const members = '/api/persons/organisations/' + world.eventor.dataset.homeClub.id;
    const others = world.eventor.requests.map((r) => r.path.toLowerCase()).filter((p) => !expected.includes(p));
    expect(others.filter((p) => p !== members)).toEqual([]);
  });

  it('shows the start time once the start list is out, on the refresh button', async () => {
    const first = await privateReply(next(world.member));
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    const start = world.eventor.dataset
      .details(upcoming)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === runner)?.starts[0]?.startTime;
    expect(start).toBeTruthy();
    // Past the client's five-minute cache of start lists.
    clock = new Date(clock.getTime() + 6 * MINUTE);
    const refresh = customIds(first).find((id) => id.startsWith('next:refresh'))!;
    const clicked = await world.discord
      .clickButton({ message: first.id, customId: refresh, user: world.member, locale: 'en-GB' })
      .reply(WAIT);
    const block = blockOf(renderMessageText(clicked), upcoming.event.name.trim());
    expect(block).not.toContain('start time not out yet');
    expect(block).toContain(`<t:${Math.floor(Date.parse(start!) / 1000)}:R>`);
  });

  it('shows every linked person, named, and one chosen with the person option; in Swedish too', async () => {
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, child, 'approval');
    const both = renderMessageText(await privateReply(next(world.member, 'sv-SE')));
    expect(both).toContain('Nästa lopp för dina kopplade personer');
    expect(both).toContain(name(runner));
    expect(both).toContain(name(child));
    const one = renderMessageText(await privateReply(next(world.member, 'en-GB', { person: child })));
    expect(one).toContain(`Next races of ${name(child)}`);
    expect(one).not.toContain(name(runner));
  });
});
