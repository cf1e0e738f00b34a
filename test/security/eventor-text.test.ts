/**
 * Text from Eventor is data, never markup, wherever it reaches Discord. Hostile text (bidi
 * overrides, `@everyone`, role, user, channel and command mentions, timestamps, masked links,
 * markdown, control characters, every kind of line break, 5,000-character values) is planted in
 * every free-text field of the domain model, found by walking its zod schemas
 * (test/support/hostile-text.ts), in the sandbox Eventor's records and in every list it generates.
 * The real bot (discord.js against the sandbox Discord, real SQLite) then shows it everywhere it
 * can: every route of every command (taken from the commands' own definitions, options filled from
 * the bot's own autocomplete), every autocomplete option, every button and select of the answers,
 * the automatic posts driven by the scheduler (the results post, its thread and pictures, the
 * members' DMs with theirs, the server's scheduled events, a cup's standings post) and every kind
 * through `/feeds test`.
 * Every request the bot made to Discord is read: none refused (the sandbox Discord enforces
 * Discord's limits), and nothing planted survives as a mention, a masked link, markup, a control
 * or bidi character or a line break in a one-line field, nor past the cut of a long text.
 */
import type { APIApplicationCommandOption } from 'discord.js';
import { ApplicationCommandOptionType, ComponentType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import * as model from '../../src/eventor/model.js';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import type { InteractionHandle, MessageView } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { addDays, localToday } from '../../src/time/days.js';
import { testNow } from '../support/clock.js';
import { EVIL_HOST, HostileText, TAIL, textFields } from '../support/hostile-text.js';
import {
  clubFinisherId,
  recentClubResultsEvent,
  upcomingClubEventWithoutStartList,
} from '../support/sandbox-events.js';

const WAIT = { timeoutMs: 20_000 };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Components followed at most, over the whole run (each a real interaction). */
const MAX_COMPONENT_CLICKS = 120;

/**
 * Fields the sandbox Eventor never sends, so nothing can be planted in them: the test fails when
 * another joins them (teach the sandbox to send it, or say here why it cannot).
 */
const SANDBOX_NEVER_SENDS: Record<string, string> = {
  'Entry.classNames[]': 'the sandbox names an entry’s class by id only, as the real Eventor’s entry lists do',
};

/**
 * Fields left as they are, each for a reason: the sandbox Eventor selects by them, as Eventor's API
 * does, so a planted one would only hide the records it belongs to.
 */
const KEPT: Record<string, string> = {
  'Event.classificationId':
    'events are asked for by level (`classificationIds`); the bot shows a level in its own words',
};
const keep = new Set(Object.keys(KEPT));

/** The records the sandbox Eventor keeps, and the lists it generates, by their model schemas. */
const SERVED = [
  model.Organisation,
  model.Person,
  model.Competitor,
  model.Event,
  model.EventDocument,
  model.EntryFee,
  model.Activity,
  model.EventClass,
  model.Entry,
  model.StartList,
  model.ResultList,
] as const;

// --- What must never reach Discord ------------------------------------------------------------

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** Anywhere: what Discord would turn into a mention, an emoji, a timestamp, or text that reads backwards. */
const EVERYWHERE: Array<[string, RegExp]> = [
  ['@everyone', /@everyone/i],
  ['@here', /@here/i],
  ['a role mention', /<@&123>/],
  ['a user mention', /<@!?456>/],
  ['a channel mention', /<#789>/],
  ['a command mention', /<\/cmd:1>/],
  ['a timestamp', /<t:0:R>/],
  ['a custom emoji', /<a?:e:[12]>/],
  ['a link without preview', /<https:\/\/evil\.example>/],
  ['a control or bidi character', CONTROL],
  ['a line break other than \\n', /[\r\u0085\u2028\u2029]/],
  ['the end of a 5,000-character text', new RegExp(TAIL)],
];
/** Where Discord renders markdown: no planted markup may render either. */
const IN_MARKDOWN: Array<[string, RegExp]> = [
  ['a masked link', /(?<!\\)\]\(<?https:\/\/evil\.example/],
  ['bold', /\*\*b\*\*/],
  ['underline', /__u__/],
  ['strikethrough', /~~s~~/],
  ['a spoiler', /\|\|x\|\|/],
  ['inline code', /(?<!\\)`c`/],
  ['a code block', /(?<!\\)```block/],
  ['a heading', /(^|\n)[ \t]*#{1,3} h[12]/],
  ['a block quote', /(^|\n)[ \t]*>{1,3} (quote|all)/],
  ['subtext', /(^|\n)[ \t]*-# sub/],
  ['a list', /(^|\n)[ \t]*(1\. list|[-*] item)/],
];
/** Where Discord shows one line of plain text. */
const ONE_LINE: Array<[string, RegExp]> = [['a line break', /\n/]];

type Kind = 'markdown' | 'line' | 'ignored';

/**
 * How Discord shows a string of a request body, by where it is: content, embed titles,
 * descriptions and fields and a scheduled event's description render markdown; labels, options,
 * placeholders, autocomplete choices, thread and scheduled event names, locations, footers,
 * authors and alt text are one line of plain text; ids, values, URLs and file names are not shown.
 */
function kindOf(path: readonly string[]): Kind {
  const key = path.at(-1) ?? '';
  const inEmbed = path.includes('embeds');
  if (['custom_id', 'url', 'proxy_url', 'value', 'filename', 'id', 'nonce', 'timestamp', 'icon_url'].includes(key))
    return path.includes('fields') && key === 'value' ? 'markdown' : 'ignored';
  if (/^(scheduled_(start|end)_time|privacy_level|entity_type|status|channel_id|type|style|flags)$/.test(key))
    return 'ignored';
  if (key === 'content') return 'markdown';
  if (inEmbed && (key === 'title' || key === 'description' || (key === 'name' && path.includes('fields'))))
    return 'markdown';
  if (inEmbed) return 'line';
  // A scheduled event: its description renders markdown, its name and location are one line.
  if (key === 'description' && !path.includes('attachments') && !path.includes('options')) return 'markdown';
  return 'line';
}

/** Every shown string of a request body, with how Discord shows it. */
function strings(
  value: unknown,
  path: readonly string[] = [],
  out: Array<{ text: string; kind: Kind; path: string }> = [],
): typeof out {
  if (typeof value === 'string') {
    const kind = kindOf(path);
    if (kind !== 'ignored') out.push({ text: value, kind, path: path.join('.') });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => strings(item, [...path, String(i)], out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) strings(item, [...path, key], out);
  }
  return out;
}

/**
 * What broke a rule, one line per rule and place (`POST /channels/:channelId/messages
 * embeds[].description`), with the first text that broke it there cut around the match.
 */
function violations(requests: ReadonlyArray<{ where: string; body: unknown }>): string[] {
  const found = new Map<string, string>();
  for (const { where, body } of requests) {
    for (const { text, kind, path } of strings(body)) {
      const rules = [...EVERYWHERE, ...(kind === 'markdown' ? IN_MARKDOWN : []), ...(kind === 'line' ? ONE_LINE : [])];
      for (const [what, pattern] of rules) {
        const match = pattern.exec(text);
        if (match === null) continue;
        const key = `${what} in ${where} ${path.replace(/\.\d+(?=\.|$)/g, '[]')}`;
        if (!found.has(key))
          found.set(key, JSON.stringify(text.slice(Math.max(0, match.index - 60), match.index + 40)));
      }
    }
  }
  return [...found].map(([key, example]) => `${key}: …${example}…`).sort();
}

// --- The commands, from their own definitions ---------------------------------------------------

interface Route {
  command: string;
  subcommand?: string;
  options: readonly APIApplicationCommandOption[];
  /** Only the server's admins see it (default_member_permissions). */
  admin: boolean;
}

function commandRoutes(): Route[] {
  return COMMANDS.flatMap((command) => {
    const definition = command.definition;
    const admin = definition.default_member_permissions != null;
    const options = (definition.options ?? []) as APIApplicationCommandOption[];
    const subcommands = options.filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
    if (options.some((o) => o.type === ApplicationCommandOptionType.SubcommandGroup))
      throw new Error(`/${definition.name}: subcommand groups are new here; teach this test to run them`);
    if (subcommands.length === 0) return [{ command: definition.name, options, admin }];
    return subcommands.map((s) => ({
      command: definition.name,
      subcommand: s.name,
      options: ('options' in s ? (s.options ?? []) : []) as APIApplicationCommandOption[],
      admin,
    }));
  });
}

const routeName = (route: Pick<Route, 'command' | 'subcommand'>): string =>
  `/${route.command}${route.subcommand ? ` ${route.subcommand}` : ''}`;

/**
 * Routes whose answer changes who the member is linked to or removes their data: run last, by a
 * member of their own, their buttons not followed.
 */
const LAST = new Set(['/unlink', '/forget-me']);

describe('every text from Eventor reaches Discord cleaned (hostile text in every field of the model; sandbox Eventor, real discord.js, sandbox Discord)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  const hostile = new HostileText();
  let home: string;
  let raced: SandboxEvent;
  let finisher: string;
  let upcoming: SandboxEvent;
  let adminChannel: string;
  let role: string;
  const feedChannels = new Map<string, string>();
  const handles: Array<{ what: string; handle: InteractionHandle }> = [];
  const ran = new Set<string>();
  const replies: Array<{ what: string; message: MessageView; user: typeof world.member }> = [];

  const guildId = (): string => world.guild.id;
  const tick = async (ms: number): Promise<void> => {
    clock = new Date(clock.getTime() + ms);
    await world.bot.scheduler.tick(clock);
  };
  const ask = (route: Route, focused: string, value: string, options: Record<string, string> = {}) =>
    world.discord.autocomplete({
      guildId: guildId(),
      channelId: world.channel.id,
      user: route.admin ? world.admin : world.member,
      locale: 'en-GB',
      name: route.command,
      ...(route.subcommand ? { subcommand: route.subcommand } : {}),
      options,
      focused,
      value,
      ...WAIT,
    });
  /** Runs a command and waits for what the member was shown (none of it "something went wrong"). */
  const run = async (
    route: Pick<Route, 'command' | 'subcommand'>,
    options: Record<string, string | number | boolean>,
    user: typeof world.member,
  ): Promise<MessageView | null> => {
    const what = `${routeName(route)} ${JSON.stringify(options)}`;
    const handle = world.discord.runCommand({
      guildId: guildId(),
      channelId: world.channel.id,
      user,
      locale: 'en-GB',
      name: route.command,
      ...(route.subcommand ? { subcommand: route.subcommand } : {}),
      options,
    });
    handles.push({ what, handle });
    ran.add(routeName(route));
    await handle.acknowledgement(WAIT);
    if (handle.modal() !== null) return null;
    const message = await handle.answer(WAIT);
    expect(JSON.stringify(message.embeds) + message.content, what).not.toContain('Something went wrong');
    replies.push({ what, message, user });
    return message;
  };

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
    const dataset = world.eventor.dataset;
    home = dataset.homeClub.id;

    // The records the sandbox keeps, whole; then, as each event's lists are generated, the lists.
    for (const org of [dataset.federation, ...dataset.districts]) hostile.plant(model.Organisation, org);
    for (const club of dataset.clubs) {
      hostile.plant(model.Organisation, club.organisation);
      club.name = club.organisation.name;
      // The home club's members have 5,000-character names; the others' short ones, so that a family
      // name shows after the given name within a name's 100 characters.
      const options = club.id === home ? { long: 'all' as const } : { long: 'none' as const, compact: true };
      for (const member of club.members) {
        hostile.plant(model.Person, member.person, options);
        hostile.plant(model.Competitor, member.competitor, options);
      }
    }
    for (const ev of dataset.events) {
      // Attributes are the season's (evening races): one without text on every event, so that the
      // field is met whatever the date.
      ev.event.attributes.push({ id: null, name: null, value: null });
      hostile.plant(model.Event, ev.event, { long: 'all', keep });
      ev.name = ev.event.name;
      for (const fee of ev.fees) hostile.plant(model.EntryFee, fee);
      for (const document of ev.documents) hostile.plant(model.EventDocument, document);
      ev.materialized = null;
    }
    for (const activity of dataset.activities) hostile.plant(model.Activity, activity);
    // A generated list holds many runners and split times: one value of each field is 5,000
    // characters, the rest short.
    dataset.onMaterialize = (_ev, lists) => {
      // The sandbox gives no course per runner: a course without a name on every start and result,
      // so that its name is planted too.
      const course = (): model.Course => ({ name: null, length: 4200, climb: 85, controls: null });
      for (const c of lists.startList?.classes ?? [])
        for (const p of c.persons) for (const s of p.starts) s.course ??= course();
      for (const c of lists.resultList?.classes ?? [])
        for (const p of c.persons) for (const r of p.results) r.course ??= course();
      for (const c of lists.classes) hostile.plant(model.EventClass, c, { long: 'first' });
      for (const entry of lists.entries) hostile.plant(model.Entry, entry, { long: 'first', keep });
      if (lists.startList) hostile.plant(model.StartList, lists.startList, { long: 'first', keep });
      if (lists.resultList) hostile.plant(model.ResultList, lists.resultList, { long: 'first', keep });
    };

    // A finisher in a class large enough for a graph: their result DM carries pictures.
    raced = recentClubResultsEvent(world.eventor, clock.getTime(), { hide: false, graphable: true });
    finisher = clubFinisherId(world.eventor, raced, { graphable: true });
    raced.hasResults = false;
    raced.materialized = null;

    // The member has also linked a runner entered in a race whose start list is not out yet.
    upcoming = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
    const entrant = dataset
      .entriesAt(upcoming)
      .find((e) => e.competitor?.organisation?.id === home && e.competitor.person?.id)?.competitor?.person?.id;
    expect(entrant, 'a club runner entered in the upcoming race').toBeDefined();
    await world.bot.store.links.linkPerson(guildId(), world.member.id, finisher, 'credentials');
    await world.bot.store.links.linkPerson(guildId(), world.member.id, entrant!, 'credentials');
    adminChannel = world.discord.createTextChannel(guildId(), { name: 'styrelsen' }).id;
    role = world.discord.createRole(guildId(), { name: 'orienterare' }).id;
    await world.bot.store.servers.setChannel(guildId(), 'admin', adminChannel);
    await world.bot.store.links.setLinkingMethods(guildId(), { approval: true });
    for (const kind of KIND_NAMES) {
      const channelId = world.discord.createTextChannel(guildId(), { name: kind }).id;
      feedChannels.set(kind, channelId);
      await world.bot.store.servers.setChannel(guildId(), kind, channelId);
    }
    world.discord.setBotCanCreateEvents(guildId(), true);
    world.discord.setBotCanManageEvents(guildId(), true);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  it('hostile text is planted in every free-text field of every record the sandbox serves', () => {
    const fields = [...new Set(SERVED.flatMap((schema) => textFields(schema)))];
    expect(fields.length).toBeGreaterThan(40);
    // Lists are generated as asked for: generate every event's now, so each field has been met.
    for (const ev of world.eventor.dataset.events) world.eventor.dataset.details(ev);
    const planted = new Set(hostile.counts.keys());
    const never = fields.filter((field) => !planted.has(field) && !(field in SANDBOX_NEVER_SENDS) && !keep.has(field));
    expect(never, 'fields of the model the sandbox never fills').toEqual([]);
    for (const ev of world.eventor.dataset.events) ev.materialized = null;
  });

  it('the results post, its thread and pictures, the members’ DMs and the server’s Events, driven by the scheduler', async () => {
    await run({ command: 'notify', subcommand: 'on' }, {}, world.member);
    // The day-before reminder is asked for apart from the others.
    await run({ command: 'notify', subcommand: 'on' }, { what: 'tomorrow' }, world.member);
    const settings = new KindSettings(world.bot.store, () => clock);
    for (const kind of KIND_NAMES)
      await settings.update(guildId(), kind, {
        enabled: true,
        ...(kind === 'results' ? { options: { threads: true } } : {}),
      });
    await tick(HOUR);
    raced.hasResults = true;
    raced.materialized = null;
    await tick(HOUR);
    const posts = world.discord.messages(feedChannels.get('results')!);
    const post = posts.find((m) => m.threadId !== null);
    expect(post, 'a results post with a thread').toBeDefined();
    const thread = world.discord.messages(post!.threadId!);
    const pictures = thread.flatMap((m) => m.attachments);
    expect(pictures.length, 'pictures in the results thread').toBeGreaterThan(0);
    // The case that was reported: a control code's text in the picture's alt text.
    const alts = pictures.map((p) => p.description ?? '');
    expect(alts.some((alt) => hostile.fieldsIn(alt).includes('SplitTime.controlCode'))).toBe(true);
    const dm = world.discord.dms(world.member).find((m) => m.attachments.length > 0);
    expect(dm, 'the result DM with its pictures').toBeDefined();
    expect(world.discord.scheduledEvents(guildId()).length, 'races in the server’s Events').toBeGreaterThan(0);

    // The start list is out: the start-time DM; then the evening before the race: the reminder DM.
    const before = world.discord.dms(world.member).length;
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    await tick(HOUR);
    const started = world.discord.dms(world.member).length;
    expect(started, 'the start-time DM').toBeGreaterThan(before);
    // From 30 to 6 hours before the start, every 3 hours: the evening before (from 18:00) is among them.
    const start = Date.parse(upcoming.event.start!);
    clock = new Date(start - 33 * HOUR);
    for (let i = 0; i < 9; i++) await tick(3 * HOUR);
    expect(world.discord.dms(world.member).length, 'the day-before reminder').toBeGreaterThan(started);
  }, 120_000);

  it('every autocomplete option of every command offers choices that are one plain line', async () => {
    let asked = 0;
    for (const route of commandRoutes()) {
      for (const option of route.options) {
        if (!('autocomplete' in option) || !option.autocomplete) continue;
        // Other options an autocomplete reads (the event of `/splits class`) get the first choice offered for them.
        const context: Record<string, string> = {};
        for (const other of route.options) {
          if (other.name === option.name || !('autocomplete' in other) || !other.autocomplete) continue;
          const first = (await ask(route, other.name, ''))[0];
          if (first) context[other.name] = String(first.value);
        }
        for (const typed of ['', 'zq', 'a']) {
          const choices = await ask(route, option.name, typed, context);
          asked++;
          for (const choice of choices) {
            expect(choice.name.length, `${routeName(route)} ${option.name}`).toBeGreaterThanOrEqual(1);
            expect(choice.name.length, `${routeName(route)} ${option.name}`).toBeLessThanOrEqual(100);
          }
        }
      }
    }
    expect(asked).toBeGreaterThan(20);
  }, 180_000);

  it('every route of every command, its options from the bot’s own autocomplete', async () => {
    const routes = commandRoutes();
    const valueFor = async (route: Route, option: APIApplicationCommandOption): Promise<unknown> => {
      if ('autocomplete' in option && option.autocomplete) {
        const offered = (await ask(route, option.name, ''))[0]?.value;
        // Nothing to offer (no race of today for `/live link`): typed by hand, as a member may.
        return offered ?? (option.required ? '1' : undefined);
      }
      if ('choices' in option && option.choices && option.choices.length > 0) return option.choices[0]!.value;
      switch (option.type) {
        case ApplicationCommandOptionType.Boolean:
          return true;
        case ApplicationCommandOptionType.Integer:
        case ApplicationCommandOptionType.Number:
          return option.name === 'top' ? 3 : option.name === 'days' ? 60 : (option.min_value ?? 1);
        case ApplicationCommandOptionType.User:
          return world.member.id;
        case ApplicationCommandOptionType.Channel:
          return world.channel.id;
        case ApplicationCommandOptionType.Role:
          return role;
        case ApplicationCommandOptionType.String:
          // A name an admin gives (a new cup's: the cup routes after it then have one to pick), a live
          // competition's id (`/live link`).
          return option.name === 'name' ? 'Klubbcupen' : option.name === 'competition' ? '1' : undefined;
        default:
          return undefined;
      }
    };
    for (const route of [...routes].sort((a, b) => Number(LAST.has(routeName(a))) - Number(LAST.has(routeName(b))))) {
      const options: Record<string, string | number | boolean> = {};
      for (const option of route.options) {
        const value = await valueFor(route, option);
        if (value !== undefined) options[option.name] = value as string | number | boolean;
        else if ('required' in option && option.required)
          throw new Error(`${routeName(route)}: no value for its required option ${option.name}`);
      }
      const user = LAST.has(routeName(route)) ? world.swedishMember : route.admin ? world.admin : world.member;
      await run(route, options, user);
      // The same route without its optional options: another answer (the member's own, the club's).
      const bare = Object.fromEntries(
        route.options.filter((o) => 'required' in o && o.required).map((o) => [o.name, options[o.name]!]),
      );
      if (Object.keys(bare).length < Object.keys(options).length) await run(route, bare, user);
      // And with the second choice of each autocompleted option (another event, member or person), and
      // every other choice of each option that has fixed ones (every kind of `/feeds test`).
      for (const option of route.options) {
        if ('autocomplete' in option && option.autocomplete) {
          const second = (await ask(route, option.name, ''))[1];
          if (second !== undefined) await run(route, { ...options, [option.name]: second.value }, user);
        } else if ('choices' in option && option.choices) {
          for (const choice of option.choices.slice(1))
            await run(route, { ...options, [option.name]: choice.value }, user);
        }
      }
    }
    expect(routes.map(routeName).filter((name) => !ran.has(name))).toEqual([]);
  }, 300_000);

  it('the answers that go deepest: results with splits, /splits with its pictures, start lists, a link request', async () => {
    const drawn = world.eventor.dataset.events.find(
      (ev) =>
        ev.hasStartList &&
        ev.syntheticRunners === 0 &&
        (world.eventor.dataset
          .details(ev)
          .startList?.classes.some((c) => c.persons.some((p) => p.organisation?.id === home)) ??
          false),
    );
    expect(drawn, 'an event with a start list holding club runners').toBeDefined();
    const member = world.member;
    await run({ command: 'results' }, { event: raced.id, splits: true, top: 3 }, member);
    await run({ command: 'results' }, { member: finisher, splits: true }, member);
    // The finisher, in a class large enough for a graph, asked for by person: a class option holds
    // 100 characters, fewer than a planted class name.
    const splits = await run({ command: 'splits' }, { event: raced.id, member: finisher }, member);
    expect(splits!.attachments.length, '/splits pictures').toBeGreaterThan(0);
    await run({ command: 'starts' }, { event: drawn!.id }, member);
    await run({ command: 'starts' }, { member: finisher }, member);
    await run({ command: 'entries' }, { event: drawn!.id }, member);
    await run({ command: 'event' }, { event: drawn!.id }, member);
    await run({ command: 'link', subcommand: 'request' }, { person: finisher }, world.swedishMember);
    // The season's pictures name the runner and the races: in the alt text too, cleaned. The
    // finisher's year, the year of the race with results (early in January, the year before): the
    // member's other linked runner may have no result yet in the year of the test's instant.
    const year = Number(
      new Date(raced.event.start!).toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' }).slice(0, 4),
    );
    for (const subcommand of ['member', 'club']) {
      const options: Record<string, string | number> = subcommand === 'member' ? { year, member: finisher } : { year };
      const season = await run({ command: 'season', subcommand }, options, member);
      expect(season!.attachments.length, `/season ${subcommand} picture`).toBeGreaterThan(0);
      expect(
        hostile.fieldsIn(season!.attachments[0]!.description ?? '').length,
        `/season ${subcommand} alt text`,
      ).toBeGreaterThan(0);
    }
  }, 120_000);

  it("a cup's standings post, driven by the scheduler: the club's runners and races named, cleaned", async () => {
    // The routes above may have turned the kind off, paused it or moved it: on again, in its channel.
    const channel = feedChannels.get('cup-standings')!;
    await world.bot.store.servers.setChannel(guildId(), 'cup-standings', channel);
    await new KindSettings(world.bot.store, () => clock).update(guildId(), 'cup-standings', {
      enabled: true,
      pausedReason: null,
      quietHours: null,
      roleId: role,
    });
    const today = localToday(clock, 'Europe/Stockholm');
    const rules = { scoring: 'winner-ratio', from: addDays(today, -300), to: addDays(today, 30), post: true };
    await run({ command: 'cup', subcommand: 'create' }, { name: 'Ställningscupen', ...rules }, world.admin);
    for (let hour = 0; hour < 6 && world.discord.messages(channel).length === 0; hour++) await tick(HOUR);
    const posts = world.discord.messages(channel);
    expect(posts.length, 'the cup standings post').toBeGreaterThan(0);
    const post = posts.find((m) => (m.embeds[0]?.title ?? '').startsWith('Ställningscupen'));
    expect(post, "the new cup's post").toBeDefined();
    expect(post!.content).toBe(`<@&${role}>`);
    // Runners' and races' names from Eventor are in it (cleaned: the last test reads every request).
    expect(hostile.fieldsIn(post!.embeds[0]!.description ?? '').length).toBeGreaterThan(0);
  }, 120_000);

  it('every button and select of the answers, and of the admins’ posts, followed once', async () => {
    let clicks = 0;
    const followed = new Set<string>();
    /** Clicks each button and picks the last option of each select of a message, as it is after each click. */
    const follow = async (messageId: string, user: typeof world.member, depth: number): Promise<void> => {
      for (let n = 0; n < 25 && clicks < MAX_COMPONENT_CLICKS; n++) {
        const live = world.discord.message(messageId);
        if (!live || live.deleted) return;
        const component = live.components
          .flatMap((row) => ('components' in row ? (row.components ?? []) : []))
          .find(
            (c) =>
              c.custom_id !== undefined &&
              !followed.has(c.custom_id) &&
              !c.disabled &&
              (c.type === ComponentType.Button ||
                (c.type === ComponentType.StringSelect && (c.options?.length ?? 0) > 0)),
          );
        if (component === undefined) return;
        followed.add(component.custom_id!);
        const handle =
          component.type === ComponentType.Button
            ? world.discord.clickButton({ message: messageId, customId: component.custom_id!, user })
            : world.discord.selectMenu({
                message: messageId,
                customId: component.custom_id!,
                values: [component.options!.at(-1)!.value],
                user,
              });
        clicks++;
        handles.push({ what: `component ${component.custom_id}`, handle });
        await handle.acknowledgement(WAIT);
        if (handle.modal() !== null) continue;
        const answer = await handle.answer(WAIT);
        if (depth < 2 && answer.id !== messageId && !answer.deleted) await follow(answer.id, user, depth + 1);
      }
    };
    for (const { what, message, user } of replies) {
      if ([...LAST].some((route) => what.startsWith(`${route} `))) continue;
      await follow(message.id, user, 1);
    }
    for (const post of world.discord.messages(adminChannel)) await follow(post.id, world.admin, 1);
    expect(clicks).toBeGreaterThan(5);
  }, 300_000);

  it('across everything: every interaction answered, no request refused, nothing planted survives', () => {
    for (const { what, handle } of handles) {
      expect(handle.acknowledged, what).toBe(true);
      expect(
        handle.history().filter((e) => e.kind === 'rejected'),
        what,
      ).toEqual([]);
    }
    const requests = world.discord.requests();
    const refused = requests
      .filter((r) => r.status >= 400)
      .map((r) => `${r.method} ${r.route ?? r.path} ${r.status} ${r.code ?? ''}`);
    expect(refused).toEqual([]);
    const sent = requests.filter((r) => r.body !== undefined && r.method !== 'GET');
    expect(sent.length).toBeGreaterThan(100);
    expect(violations(sent.map((r) => ({ where: `${r.method} ${r.route ?? r.path}`, body: r.body })))).toEqual([]);

    // What reached Discord: the planted fields did, cleaned, in every kind of place.
    const surfaced = new Map<string, Set<string>>();
    for (const r of sent) {
      for (const { text, path } of strings(r.body)) {
        const place = `${r.route ?? r.path} ${path.replace(/\.\d+(?=\.|$)/g, '[]')}`;
        for (const field of hostile.fieldsIn(text)) {
          const places = surfaced.get(field) ?? new Set<string>();
          places.add(place);
          surfaced.set(field, places);
        }
      }
    }
    const fields = [...surfaced.keys()].sort();
    expect(fields).toEqual(
      expect.arrayContaining([
        'PersonName.given',
        'PersonName.family',
        'Organisation.name',
        'OrganisationRef.name',
        'EventClass.name',
        'ClassRef.name',
        'SplitTime.controlCode',
        'TeamResult.name',
        'Event.name',
        'EventRace.name',
        'Event.message',
        'Activity.name',
        'Activity.information',
      ]),
    );
    // ...and in every kind of place Discord shows text.
    const places = [...surfaced.values()].flatMap((set) => [...set]);
    for (const place of [
      / content$/,
      / embeds\[\]\.title$/,
      / embeds\[\]\.description$/,
      / embeds\[\]\.fields\[\]\.value$/,
      / attachments\[\]\.description$/,
      / data\.choices\[\]\.name$/,
      / components\[\]\.components\[\]\.options\[\]\.label$/,
      /\/threads name$/,
      /\/scheduled-events name$/,
    ])
      expect(
        places.some((p) => place.test(p)),
        String(place),
      ).toBe(true);
    expect(JSON.stringify(sent.map((r) => r.body))).toContain(EVIL_HOST);
  });
});
