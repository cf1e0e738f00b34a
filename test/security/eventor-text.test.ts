/**
 * Text from Eventor is data, never markup. Crafted names are planted in the
 * sandbox Eventor (every home-club member's given name 3,000 characters of markdown, mentions
 * and a masked link; the club's name with `**`; every event named `@here` with a line break and
 * a masked link; every class `<#1>`; every activity with a bidi override), then the real bot
 * (discord.js against the sandbox Discord) runs every command that shows them, the automatic
 * posts (through the scheduler and `/feeds test`), the thread and the personal DMs. Every request
 * the bot made to Discord is then read: none refused (the sandbox Discord enforces Discord's
 * limits), nothing planted survives as a mention, a masked link or a bidi override, and the long
 * name is cut with an ellipsis everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { FeedSettingsStore } from '../../src/feeds/settings.js';
import { type InteractionHandle, type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';

const WAIT = { timeoutMs: 15_000 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** 3,000 characters in numbered chunks: a name cut near 100 characters can only hold the first few. */
const LONG_NAME = Array.from(
  { length: 60 },
  (_, i) => `**Evil${i}** _x_ @everyone <@123> [click](https://evil.example) `,
)
  .join('')
  .slice(0, 3000);
const CLUB_NAME = '**Bold** Club <@&456>';
const EVENT_PREFIX = '@here\nRead this ';
const EVENT_SUFFIX = ' [click](https://evil.example) </cmd:1>';
const CLASS_PREFIX = '<#1> ';
const ACTIVITY_PREFIX = '\u202Egnitarbmys ';

/** Everything a message shows as text: content, embeds, and component labels. */
function textOf(message: MessageView): string {
  const labels = message.components
    .flatMap((row) =>
      'components' in row ? (row.components as Array<{ label?: string; options?: Array<{ label: string }> }>) : [],
    )
    .flatMap((c) => [c.label ?? '', ...(c.options ?? []).map((o) => o.label)]);
  return [renderMessageText(message), ...labels].join('\n');
}

/** What must not be found in any text the bot sent Discord. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['@everyone', /@everyone/],
  ['@here', /@here/],
  ['a user mention', /<@123>/],
  ['a role mention', /<@&456>/],
  ['a channel mention', /<#1>/],
  ['a command mention', /<\/cmd:1>/],
  ['a bidi override', /\u202E/],
  ['more than the first few chunks of the 3,000-character name', /Evil(1\d|[2-5]\d)\b/],
];
/** In text Discord renders as markdown, also no masked link (in plain text it shows as typed). */
const FORBIDDEN_IN_MARKDOWN: Array<[string, RegExp]> = [
  ...FORBIDDEN,
  ['an unescaped masked link', /(?<!\\)\]\(https:\/\/evil\.example/],
];

/**
 * Every string in a request body the bot sent, with whether Discord renders it as markdown:
 * content, embed titles, descriptions and fields do; labels, select options, autocomplete choices,
 * thread names, footers and author names are plain text.
 */
function strings(
  value: unknown,
  path: readonly string[] = [],
  out: Array<{ text: string; markdown: boolean; path: string }> = [],
): typeof out {
  if (typeof value === 'string') {
    const key = path.at(-1) ?? '';
    const inEmbed = path.includes('embeds');
    const markdown =
      key === 'content' ||
      (inEmbed &&
        (key === 'title' || key === 'description' || key === 'value' || (key === 'name' && path.includes('fields'))));
    out.push({ text: value, markdown, path: path.join('.') });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      strings(item, [...path, String(i)], out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) strings(item, [...path, key], out);
  }
  return out;
}

function violations(body: unknown): string[] {
  return strings(body).flatMap(({ text, markdown, path }) =>
    (markdown ? FORBIDDEN_IN_MARKDOWN : FORBIDDEN)
      .filter(([, pattern]) => pattern.test(text))
      .map(([what]) => `${what} at ${path}: ${text.slice(0, 160)}`),
  );
}

describe('Eventor text reaching Discord is escaped and fits (sandbox Eventor with crafted names, real discord.js, sandbox Discord)', () => {
  let world: LoopbackWorld;
  let clock = new Date('2026-10-20T08:00:00Z');
  let home: string;
  let raced: SandboxEvent;
  let upcoming: SandboxEvent;
  let drawn: SandboxEvent;
  let finisher: string;
  let other: string;
  let adminChannel: string;
  const feedChannels = new Map<string, string>();
  const handles: InteractionHandle[] = [];

  const guildId = (): string => world.guild.id;
  const run = (
    user: typeof world.member,
    name: string,
    options: Record<string, string | number | boolean> = {},
    subcommand?: string,
  ): InteractionHandle => {
    const handle = world.discord.runCommand({
      guildId: guildId(),
      channelId: world.channel.id,
      user,
      locale: 'en-GB',
      name,
      options,
      ...(subcommand ? { subcommand } : {}),
    });
    handles.push(handle);
    return handle;
  };
  /** The visible answer of a command; it must not be the router's "something went wrong". */
  const answer = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    const text = textOf(reply);
    expect(text).not.toContain('Something went wrong');
    return text;
  };
  const tick = async (ms: number): Promise<void> => {
    clock = new Date(clock.getTime() + ms);
    await world.bot.scheduler.tick(clock);
  };
  /** Every body the bot sent Discord: messages, edits, callbacks, autocomplete, thread names, DMs. */
  const sentBodies = (): unknown[] =>
    world.discord
      .requests()
      .filter((r) => r.body !== undefined)
      .map((r) => r.body);

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    const dataset = world.eventor.dataset;
    home = dataset.homeClub.id;
    const now = clock.getTime();

    raced = recentClubResultsEvent(world.eventor, now, { hide: false });
    finisher = clubFinisherId(world.eventor, raced);
    raced.hasResults = false;
    raced.materialized = null;
    other = dataset.homeClub.members.find((m) => m.person.id !== finisher)!.person.id!;
    const clubEntered = (ev: SandboxEvent): boolean =>
      dataset.entriesAt(ev).some((e) => e.competitor?.organisation?.id === home);
    const found = dataset.events.find(
      (ev) =>
        ev.event.status !== 'canceled' &&
        ev.syntheticRunners === 0 &&
        ev.event.start !== null &&
        Date.parse(ev.event.start) > now + 2 * DAY &&
        Date.parse(ev.event.start) < now + 50 * DAY &&
        ev.event.entryDeadlines.some((d) => Date.parse(d) > now) &&
        clubEntered(ev),
    );
    if (!found) throw new Error('the sandbox has no upcoming event with club entries and an open entry deadline');
    upcoming = found;
    const withDraw = dataset.events.find(
      (ev) =>
        ev.hasStartList &&
        ev.syntheticRunners === 0 &&
        ev.id !== raced.id &&
        (dataset.details(ev).startList?.classes.some((c) => c.persons.some((p) => p.organisation?.id === home)) ??
          false),
    );
    if (!withDraw) throw new Error('the sandbox has no event with a start list holding club runners');
    drawn = withDraw;

    // The crafted texts. Names are shared by reference with generated lists; classes are planted as lists are generated.
    for (const member of dataset.homeClub.members) member.person.name.given = LONG_NAME;
    dataset.homeClub.organisation.name = CLUB_NAME;
    for (const ev of dataset.events) {
      ev.event.name = `${EVENT_PREFIX}${ev.name}${EVENT_SUFFIX}`;
      ev.name = ev.event.name;
      ev.materialized = null;
    }
    for (const activity of dataset.activities) {
      activity.name = `${ACTIVITY_PREFIX}${activity.name}`;
      activity.information = '**Info** @everyone <@123> [click](https://evil.example)\n> quoted @here \u202Ebidi';
    }
    dataset.onMaterialize = (_ev, lists) => {
      const rename = (cls: { name: string; shortName?: string | null }): void => {
        if (!cls.name.startsWith(CLASS_PREFIX)) cls.name = `${CLASS_PREFIX}${cls.name}`;
        if (cls.shortName && !cls.shortName.startsWith(CLASS_PREFIX)) cls.shortName = `${CLASS_PREFIX}${cls.shortName}`;
      };
      lists.classes.forEach(rename);
      for (const c of lists.startList?.classes ?? []) rename(c.class);
      for (const c of lists.resultList?.classes ?? []) rename(c.class);
    };

    await world.bot.store.links.linkPerson(guildId(), world.member.id, finisher, 'credentials');
    adminChannel = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannel);
    await world.bot.store.links.setLinkingMethods(guildId(), { approval: true });
    for (const kind of KIND_NAMES) {
      const channelId = world.discord.createTextChannel(guildId(), { name: kind }).id;
      feedChannels.set(kind, channelId);
      await world.bot.store.servers.setChannel(guildId(), kind, channelId);
    }
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('the results feed, its thread and the personal result DM, driven by the scheduler', async () => {
    expect(await answer(run(world.member, 'notify', {}, 'on'))).not.toBe('');
    const settings = new FeedSettingsStore(world.bot.store, () => clock);
    await settings.update(guildId(), 'results', { enabled: true, options: { threads: true } });
    await tick(HOUR);
    raced.hasResults = true;
    raced.materialized = null;
    await tick(HOUR);
    const posts = world.discord.messages(feedChannels.get('results')!);
    expect(posts.length).toBeGreaterThan(0);
    const post = posts.find((m) => textOf(m).includes('Read this'));
    expect(post, 'the results post of the crafted event').toBeDefined();
    expect(post!.threadId, 'a thread under the results post').not.toBeNull();
    const thread = world.discord.messages(post!.threadId!);
    expect(thread.length).toBeGreaterThan(0);
    const threadText = thread.map(textOf).join('\n');
    expect(threadText).toContain('\\*\\*Evil0\\*\\*');
    expect(threadText).toContain('…');
    const dm = world.discord
      .dms(world.member)
      .map(textOf)
      .find((text) => text.includes('Read this'));
    expect(dm, 'the personal result DM').toBeDefined();
    expect(dm).toContain('\\[click\\]');
    expect(dm).toContain(`<\u200b#1>`);
  });

  it('every query command that shows Eventor names answers, within the limits', async () => {
    // A class of the raced event with club runners and enough runners with splits to draw.
    const drawable = world.eventor.dataset
      .details(raced)
      .resultList!.classes.find(
        (c) =>
          c.persons.filter((p) => p.results[0]?.splits.length).length >= 5 &&
          c.persons.some((p) => p.organisation?.id === home && p.results[0]?.status === 'OK'),
      );
    expect(drawable, 'a class to draw').toBeDefined();
    const texts = await Promise.all([
      answer(run(world.member, 'events', { days: 60 })),
      answer(run(world.member, 'event', { event: upcoming.id })),
      answer(run(world.member, 'entries', { event: upcoming.id })),
      answer(run(world.member, 'entries')),
      answer(run(world.member, 'starts', { event: drawn.id })),
      answer(run(world.member, 'starts', { member: finisher })),
      answer(run(world.member, 'results', { event: raced.id, splits: true, top: 3 })),
      answer(run(world.member, 'results', { member: finisher, splits: true })),
      answer(run(world.member, 'results')),
      answer(run(world.member, 'activities')),
      answer(run(world.member, 'card')),
      answer(run(world.member, 'splits', { event: raced.id, class: drawable!.class.name })),
    ]);
    const [events, event, entries, , starts, , results, personal] = texts;
    // The graph, the bars and the words: the names in the pictures' alt text are checked with every body below.
    const splits = texts.at(-1)!;
    expect(splits).toContain('\\*\\*Evil0\\*\\*');
    expect(splits).toContain(`<\u200b#1>`);
    expect(splits).toContain('[file: splits.png');
    expect(events).toContain('Read this');
    expect(event).toContain('Read this');
    expect(entries).toContain('\\*\\*Evil0\\*\\*');
    expect(entries).toContain('…');
    expect(starts).toContain('\\*\\*Evil0\\*\\*');
    expect(results).toContain('\\*\\*Evil0\\*\\*');
    expect(results).toContain(`<\u200b#1>`);
    expect(personal).toContain('…');
    const status = await answer(run(world.admin, 'status'));
    expect(status).toContain('\\*\\*Bold\\*\\* Club');
    const setup = await answer(run(world.admin, 'setup', {}, 'show'));
    expect(setup).toContain('\\*\\*Bold\\*\\* Club');
    const activity = world.eventor.dataset.activities.find(
      (a) => a.startTime !== null && Math.abs(Date.parse(a.startTime) - clock.getTime()) < 150 * DAY,
    );
    expect(activity, 'an activity near the clock').toBeDefined();
    const card = await answer(run(world.member, 'activity', { activity: activity!.id }));
    expect(card).toContain('gnitarbmys');
  });

  it('linking replies and the admin post carry the cut, escaped name', async () => {
    const whoami = await answer(run(world.member, 'whoami'));
    expect(whoami).toContain('\\*\\*Evil0\\*\\*');
    expect(whoami).toContain('…');
    const requested = await answer(run(world.swedishMember, 'link', { person: other }, 'request'));
    expect(requested).toContain('…');
    const adminPost = await world.discord.waitForMessage(adminChannel, (m) => m.content.includes('Evil0'), WAIT);
    expect(adminPost.content).toContain('\\*\\*Evil0\\*\\*');
    expect(adminPost.content).toContain('…');
    const links = await answer(run(world.admin, 'admin', {}, 'links'));
    expect(links).toContain('…');
  });

  it('autocomplete choice names are plain, one line, 1 to 100 characters', async () => {
    const ask = (name: string, focused: string, value: string, subcommand?: string, user = world.member) =>
      world.discord.autocomplete({
        guildId: guildId(),
        channelId: world.channel.id,
        user,
        locale: 'en-GB',
        name,
        focused,
        value,
        ...(subcommand ? { subcommand } : {}),
        ...WAIT,
      });
    const lists = await Promise.all([
      ask('results', 'member', ''),
      ask('results', 'event', 'read'),
      ask('event', 'event', ''),
      ask('activity', 'activity', ''),
      ask('events', 'organiser', 'bold'),
      ask('login', 'person', ''),
      ask('link', 'person', '', 'default'),
      ask('admin', 'person', '', 'link', world.admin),
    ]);
    for (const choices of lists) {
      expect(choices.length).toBeGreaterThan(0);
      for (const choice of choices) {
        expect(choice.name.length).toBeGreaterThanOrEqual(1);
        expect(choice.name.length).toBeLessThanOrEqual(100);
        expect(choice.name).not.toMatch(/[\n\u202E]/);
      }
    }
    expect(lists[0]!.some((c) => c.name.startsWith('**Evil0**') && c.name.endsWith('…'))).toBe(true);
  });

  it('every kind of automatic post, through /feeds test', async () => {
    for (const kind of KIND_NAMES) {
      const reply = await answer(run(world.admin, 'feeds', { kind }, 'test'));
      expect(reply, kind).not.toBe('');
    }
    const posted = KIND_NAMES.flatMap((kind) => world.discord.messages(feedChannels.get(kind)!))
      .map(textOf)
      .join('\n');
    expect(posted).toContain('Read this');
    expect(posted).toContain('gnitarbmys');
  });

  it('/login: the DM with the cut, escaped name is written before Eventor is asked for the link', async () => {
    const before = world.discord.dms(world.member).length;
    expect(await answer(run(world.member, 'login'))).not.toBe('');
    const dms = world.discord.dms(world.member);
    expect(dms).toHaveLength(before + 1);
    const dm = dms.at(-1)!;
    expect(dm.content).toContain('\\*\\*Evil0\\*\\*');
    expect(dm.content).toContain('…');
    expect(dm.content.length).toBeLessThanOrEqual(2000);
  });

  it('across everything: every interaction answered, no request refused, nothing planted survives', () => {
    expect(handles.length).toBeGreaterThan(20);
    for (const handle of handles) {
      expect(handle.acknowledged, `interaction ${handle.id}`).toBe(true);
      expect(handle.history().filter((e) => e.kind === 'rejected')).toEqual([]);
    }
    const refused = world.discord
      .requests()
      .filter((r) => r.status >= 400)
      .map((r) => `${r.method} ${r.route ?? r.path} ${r.status} ${r.code ?? ''}`);
    expect(refused).toEqual([]);
    const bodies = sentBodies();
    expect(bodies.length).toBeGreaterThan(30);
    expect(bodies.flatMap(violations)).toEqual([]);
    // The planted texts did reach Discord, escaped.
    const all = bodies.map((body) => JSON.stringify(body)).join('\n');
    expect(all).toContain('Evil0');
    expect(all).toContain('gnitarbmys');
    expect(all).toContain('Bold');
  });
});
