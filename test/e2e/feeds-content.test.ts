import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import type { Activity, Entry } from '../../src/eventor/model.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { type PostTarget, restBody } from '../../src/feeds/delivery/poster.js';
import { withRoleMention } from '../../src/feeds/delivery/publish.js';
import type { FeedRun, FeedRunOptions } from '../../src/feeds/feed.js';
import { ACTIVITIES_FEED, runActivitiesFeed } from '../../src/feeds/kinds/activities/activities.js';
import { EVENTS_CURSOR_KEY, EVENTS_FEED, runEventsFeed } from '../../src/feeds/kinds/events/events.js';
import { REMINDERS_FEED, reminderItems, runRemindersFeed } from '../../src/feeds/kinds/reminders/reminders.js';
import { runStartListsFeed, STARTLISTS_FEED } from '../../src/feeds/kinds/startlists/startlists.js';
import { KINDS, kindNamed } from '../../src/feeds/registry.js';
import type { Language } from '../../src/i18n/index.js';
import { createLogger } from '../../src/log/logger.js';
import { formatClock } from '../../src/render/index.js';
import { LOGIN_BUTTON_ID } from '../../src/render/login-button.js';
import type { MessageView } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import { startFeedWorld } from '../support/feed-world.js';
import { upcomingClubEventWithoutStartList } from '../support/sandbox-events.js';
import { testNow } from '../support/clock.js';
import { visibleText } from '../../harness/sandbox/discord/index.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const ROLE = '998877665544332211';
const ZONE = 'Europe/Stockholm';

function text(message: MessageView): string {
  return [
    message.content,
    ...message.embeds.flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).map((f) => `${f.name}\n${f.value}`),
    ]),
  ].join('\n');
}

function buttonIds(message: MessageView): string[] {
  return message.components
    .flatMap((row) => ('components' in row ? (row.components as Array<{ custom_id?: string }>) : []))
    .map((c) => c.custom_id ?? '')
    .filter((id) => id !== '');
}

function outcomeOf(run: FeedRun, itemKey: string): string | undefined {
  return run.outcomes.find((o) => o.itemKey === itemKey)?.outcome.kind;
}

/** Every outcome of a run that made or changed a message. */
function changed(run: FeedRun): string[] {
  return run.outcomes.filter((o) => !['unchanged', 'seeded'].includes(o.outcome.kind)).map((o) => o.itemKey);
}

describe('reminders, start lists, new events and activities feeds (sandbox Eventor, real discord.js, sandbox Discord)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let client: EventorClient;
  let ledger: Ledger;
  let target: PostTarget;
  let home: string;

  const setClock = (at: number): void => {
    if (at < clock.getTime()) throw new Error('the clock only moves forward');
    clock = new Date(at);
  };
  const tick = (ms = 6 * MINUTE): void => setClock(clock.getTime() + ms);

  /** A server (ledger guild id) with its own channel, language and role. */
  const server = (name: string, language: Language, roleId: string | null = null) => {
    const channelId = world.discord.createTextChannel(world.guild.id, { name }).id;
    const options = (): FeedRunOptions => ({
      guildId: `${name}-guild`,
      channelId,
      roleId,
      client,
      organisationId: home,
      ledger,
      target,
      now: clock,
      language,
      timeZone: ZONE,
    });
    return { channelId, options, messages: () => world.discord.messages(channelId) };
  };

  const clubEntries = (entries: readonly Entry[]): number =>
    entries.filter((e) =>
      e.competitor ? e.competitor.organisation?.id === home : (e.team?.organisations ?? []).some((o) => o.id === home),
    ).length;

  beforeAll(async () => {
    ({ world, client, ledger, target, home } = await startFeedWorld(() => clock));
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('every kind has a /feeds test preview; the reminder preview carries the login button', async () => {
    const ctx = {
      client,
      organisationId: home,
      now: clock,
      language: 'en' as const,
      timeZone: ZONE,
      guildId: world.guild.id,
      store: world.bot.store,
      log: createLogger({ level: 'error', write: () => undefined }),
    };
    for (const kind of ['reminders', 'startlists', 'events', 'activities'] as const) {
      const module = kindNamed(KINDS, kind);
      expect(module?.preview, kind).toBeDefined();
      const payload = await module!.preview!(ctx, module!.options.parse({}));
      if (payload) expect(payload.allowedMentions).toEqual({ parse: [] });
      if (kind === 'reminders' || kind === 'activities') expect(payload, kind).not.toBeNull();
      if (kind === 'reminders') {
        const ids = (payload!.components ?? [])
          .flatMap((row) => row.components)
          .map((c) => ('custom_id' in c ? c.custom_id : ''));
        expect(ids).toContain(LOGIN_BUTTON_ID);
      }
    }
  });

  describe('entry-deadline reminders', () => {
    let event: SandboxEvent;
    let deadline: number;
    let count: number;
    let en: ReturnType<typeof server>;
    let sv: ReturnType<typeof server>;

    beforeAll(() => {
      const now = clock.getTime();
      const found = world.eventor.dataset.events.find((ev) => {
        const d = ev.event.entryDeadlines[0];
        if (!d || ev.event.status === 'canceled' || ev.syntheticRunners > 0) return false;
        const ahead = Date.parse(d) - now;
        return ahead > 11 * DAY && ahead < 40 * DAY && clubEntries(world.eventor.dataset.entriesAt(ev)) > 1;
      });
      if (!found)
        throw new Error('the sandbox has no event with club entries and an entry deadline 11 to 40 days ahead');
      event = found;
      deadline = Date.parse(event.event.entryDeadlines[0]!);
      en = server('reminders-en', 'en');
      sv = server('reminders-sv', 'sv', ROLE);
    });

    it('seeds on the first run and posts nothing', async () => {
      setClock(deadline - 10 * DAY);
      for (const s of [en, sv]) {
        const run = await runRemindersFeed(s.options());
        expect(run.seeded).toBe(true);
        expect(s.messages()).toHaveLength(0);
      }
      expect(await ledger.feedStartedAt(`reminders-en-guild`, REMINDERS_FEED)).not.toBeNull();
    });

    it('posts the 7-day reminder once, with the deadline, the club count and the login button', async () => {
      setClock(deadline - 7 * DAY + HOUR);
      // Entries grow as the sandbox clock moves: the count is the club's entries made by now.
      count = clubEntries(world.eventor.dataset.entriesAt(event));
      const key = `reminders:${event.id}:${event.event.entryDeadlines[0]}:7`;
      const run = await runRemindersFeed(en.options());
      expect(run.paused).toBeNull();
      expect(outcomeOf(run, key)).toBe('posted');
      const mine = en.messages().filter((m) => text(m).includes(event.name));
      expect(mine).toHaveLength(1);
      const message = mine[0]!;
      expect(message.content).toContain(`<t:${Math.floor(deadline / 1000)}:R>`);
      expect(message.content).toContain('Entry for');
      expect(text(message)).toContain(`${count} from the club have entered so far.`);
      expect(buttonIds(message)).toContain(LOGIN_BUTTON_ID);
      expect(message.content).not.toContain('<@&');

      const before = en.messages().length;
      tick(2 * MINUTE);
      const again = await runRemindersFeed(en.options());
      expect(outcomeOf(again, key)).toBe('unchanged');
      expect(changed(again)).toEqual([]);
      expect(en.messages()).toHaveLength(before);
    });

    it('in Swedish, with the role mentioned', async () => {
      count = clubEntries(world.eventor.dataset.entriesAt(event));
      const key = `reminders:${event.id}:${event.event.entryDeadlines[0]}:7`;
      const run = await runRemindersFeed(sv.options());
      expect(outcomeOf(run, key)).toBe('posted');
      const message = sv.messages().find((m) => text(m).includes(event.name))!;
      expect(message.content.startsWith(`<@&${ROLE}>`)).toBe(true);
      expect(message.content).toContain('Anmälan till');
      expect(text(message)).toContain(`${count} från klubben har anmält sig hittills.`);
      expect(buttonIds(message)).toContain(LOGIN_BUTTON_ID);
      expect(changed(await runRemindersFeed(sv.options()))).toEqual([]);
    });

    it('posts the 1-day reminder when it is due, once', async () => {
      setClock(deadline - DAY + HOUR);
      const key = `reminders:${event.id}:${event.event.entryDeadlines[0]}:1`;
      const run = await runRemindersFeed(en.options());
      expect(outcomeOf(run, key)).toBe('posted');
      expect(en.messages().filter((m) => text(m).includes(event.name))).toHaveLength(2);
      tick(2 * MINUTE);
      expect(outcomeOf(await runRemindersFeed(en.options()), key)).toBe('unchanged');
      expect(en.messages().filter((m) => text(m).includes(event.name))).toHaveLength(2);
    });

    it('the item builder: one reminder due per deadline, none after it, the payload allows exactly the role', () => {
      const ctx = (at: number) => ({
        language: 'en' as const,
        timeZone: ZONE,
        now: new Date(at),
        webUrl: client.instance.webUrl,
      });
      const counts = new Map([[event.id, 3]]);
      const opts = { leadDays: [7, 1], lateEntry: false };
      const keys = (at: number) => reminderItems([event.event], counts, ctx(at), opts).map((i) => i.itemKey);
      expect(keys(deadline - 8 * DAY)).toEqual([]);
      expect(keys(deadline - 3 * DAY)).toEqual([`reminders:${event.id}:${event.event.entryDeadlines[0]}:7`]);
      expect(keys(deadline - HOUR)).toEqual([`reminders:${event.id}:${event.event.entryDeadlines[0]}:1`]);
      expect(keys(deadline + HOUR)).toEqual([]);
      // Late entry: the shortest lead before each later deadline, only when wanted.
      const late = event.event.entryDeadlines[1]!;
      const lateItems = reminderItems([event.event], counts, ctx(Date.parse(late) - 12 * HOUR), {
        ...opts,
        lateEntry: true,
      });
      expect(lateItems.map((i) => i.itemKey)).toEqual([`reminders:${event.id}:${late}:1`]);
      expect(lateItems[0]!.payload.content).toContain('Late entry for');
      expect(keys(Date.parse(late) - 12 * HOUR)).toEqual([]);
      const [item] = reminderItems([event.event], counts, ctx(deadline - HOUR), opts, ROLE);
      expect(item!.payload.allowedMentions).toEqual({ parse: [], roles: [ROLE] });
      // What goes to Discord's REST API is spelled its way, or Discord would ignore it and ping by default.
      expect(restBody(item!.payload)).toMatchObject({ allowed_mentions: { parse: [], roles: [ROLE] } });
      expect(restBody(item!.payload)).not.toHaveProperty('allowedMentions');
      expect(withRoleMention(item!.payload, null).allowedMentions).toEqual({ parse: [] });
    });
  });

  describe('start lists', () => {
    let event: SandboxEvent;
    let en: ReturnType<typeof server>;
    let sv: ReturnType<typeof server>;

    beforeAll(() => {
      event = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
      en = server('starts-en', 'en');
      sv = server('starts-sv', 'sv', ROLE);
    });

    it('seeds on the first run and posts nothing', async () => {
      tick();
      for (const s of [en, sv]) {
        const run = await runStartListsFeed(s.options());
        expect(run.seeded).toBe(true);
        expect(s.messages()).toHaveLength(0);
      }
    });

    it('posts the club start times once the start list is out, once', async () => {
      event.hasStartList = true;
      event.materialized = null;
      tick();
      const key = `${STARTLISTS_FEED}:${event.id}`;
      const run = await runStartListsFeed(en.options());
      expect(outcomeOf(run, key)).toBe('posted');
      const list = world.eventor.dataset.details(event).startList!;
      const runner = list.classes
        .flatMap((c) => c.persons)
        .find((p) => p.organisation?.id === home && p.starts[0]?.startTime)!;
      const clockText = formatClock(runner.starts[0]!.startTime!, {
        language: 'en',
        timeZone: ZONE,
        now: clock,
        webUrl: client.instance.webUrl,
      });
      const message = en.messages().find((m) => text(m).includes(event.name))!;
      expect(message).toBeDefined();
      expect(text(message)).toContain(`\`${clockText}\` ${runner.person!.name.given}`);
      expect(message.content).toContain('start list');

      const count = en.messages().length;
      tick(2 * MINUTE);
      const again = await runStartListsFeed(en.options());
      expect(outcomeOf(again, key)).toBe('unchanged');
      expect(en.messages()).toHaveLength(count);

      const svRun = await runStartListsFeed(sv.options());
      expect(outcomeOf(svRun, key)).toBe('posted');
      const svMessage = sv.messages().find((m) => text(m).includes(event.name))!;
      expect(svMessage.content.startsWith(`<@&${ROLE}>`)).toBe(true);
      expect(svMessage.content).toContain('Startlistan för');
    });

    it('edits the post when a start time changes', async () => {
      const list = world.eventor.dataset.details(event).startList!;
      const runner = list.classes
        .flatMap((c) => c.persons)
        .find((p) => p.organisation?.id === home && p.starts[0]?.startTime)!;
      const start = runner.starts[0]!;
      start.startTime = new Date(Date.parse(start.startTime!) + 7 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
      tick();
      const run = await runStartListsFeed(en.options());
      expect(outcomeOf(run, `${STARTLISTS_FEED}:${event.id}`)).toBe('edited');
      const message = en.messages().find((m) => text(m).includes(event.name))!;
      expect(message.edits).toHaveLength(1);
      const clockText = formatClock(start.startTime, {
        language: 'en',
        timeZone: ZONE,
        now: clock,
        webUrl: client.instance.webUrl,
      });
      expect(text(message)).toContain(clockText);
    });

    it('a start list already out when the feed was turned on is posted once it changes, once', async () => {
      const late = server('starts-late', 'en');
      tick();
      expect((await runStartListsFeed(late.options())).seeded).toBe(true);
      tick();
      expect(outcomeOf(await runStartListsFeed(late.options()), `${STARTLISTS_FEED}:${event.id}`)).toBe('seeded');
      expect(late.messages()).toHaveLength(0);
      const list = world.eventor.dataset.details(event).startList!;
      const start = list.classes
        .flatMap((c) => c.persons)
        .find((p) => p.organisation?.id === home && p.starts[0]?.startTime)!.starts[0]!;
      start.startTime = new Date(Date.parse(start.startTime!) + 3 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
      tick();
      expect(outcomeOf(await runStartListsFeed(late.options()), `${STARTLISTS_FEED}:${event.id}`)).toBe('posted');
      tick();
      expect(outcomeOf(await runStartListsFeed(late.options()), `${STARTLISTS_FEED}:${event.id}`)).toBe('unchanged');
      expect(late.messages().filter((m) => text(m).includes(event.name))).toHaveLength(1);
    });

    it('an event whose start list Eventor answers unreadably is skipped and logged, not the whole run failed', async () => {
      const lines: string[] = [];
      const log = createLogger({ level: 'warn', write: (line) => void lines.push(line) });
      // A client without a cache: a cached list would be served instead (stale-if-error).
      const bare = new EventorClient({
        instance: customInstance(world.eventor.baseUrl),
        apiKey: world.eventor.apiKey,
        now: () => clock.getTime(),
        retries: 0,
        cache: false,
      });
      onTestFinished(() => bare.close());
      const fault = world.eventor.faults.add({ path: '/api/starts/organisation', kind: 'malformed' });
      try {
        tick();
        const run = await runStartListsFeed({ ...en.options(), client: bare, log });
        expect(run.paused).toBeNull();
        expect(run.outcomes.every((o) => o.outcome.kind !== 'failed')).toBe(true);
        expect(
          lines.some((line) => line.includes('skipping an event whose start list') && line.includes(event.id)),
        ).toBe(true);
      } finally {
        world.eventor.faults.remove(fault);
      }
      // An outage, on the other hand, fails the run (the scheduler backs off).
      const outage = world.eventor.faults.add({ path: '/api/starts/organisation', kind: 'status', status: 503 });
      try {
        tick();
        await expect(runStartListsFeed({ ...en.options(), client: bare })).rejects.toThrow();
      } finally {
        world.eventor.faults.remove(outage);
      }
    });
  });

  describe('new events', () => {
    let event: SandboxEvent;
    let en: ReturnType<typeof server>;
    let sv: ReturnType<typeof server>;
    const renamed = 'Hälleskogens Nattsprint';

    beforeAll(() => {
      const now = clock.getTime();
      const found = world.eventor.dataset.events.find(
        (ev) =>
          ev.event.start !== null &&
          ev.event.status !== 'canceled' &&
          ev.syntheticRunners === 0 &&
          Date.parse(ev.event.start) > now + 3 * DAY &&
          ev.event.organisers.some((o) => o.id === home),
      );
      if (!found) throw new Error('the sandbox has no upcoming event organised by the club');
      event = found;
      en = server('events-en', 'en');
      sv = server('events-sv', 'sv', ROLE);
    });

    it('seeds on the first run (only the cursor) and posts nothing', async () => {
      tick();
      for (const s of [en, sv]) {
        const run = await runEventsFeed(s.options());
        expect(run.seeded).toBe(true);
        expect(s.messages()).toHaveLength(0);
        expect(
          (await ledger.get({ guildId: s.options().guildId, feed: EVENTS_FEED, itemKey: EVENTS_CURSOR_KEY }))
            ?.contentHash,
        ).toBe(clock.toISOString());
      }
      // Nothing changed since: the next run posts nothing either.
      tick(2 * MINUTE);
      expect(changed(await runEventsFeed(en.options()))).toEqual([]);
      expect(en.messages()).toHaveLength(0);
    });

    it('posts a changed event once, then edits it to say cancelled', async () => {
      tick();
      event.event.name = renamed;
      event.name = renamed;
      world.eventor.dataset.touchEvent(event.id, new Date(clock.getTime() - MINUTE));
      const key = `${EVENTS_FEED}:${event.id}`;
      const run = await runEventsFeed(en.options());
      expect(outcomeOf(run, key)).toBe('posted');
      expect(changed(run)).toEqual([key]);
      const messages = en.messages();
      expect(messages).toHaveLength(1);
      expect(messages[0]!.embeds[0]!.title).toContain(renamed);
      expect(messages[0]!.content).toContain(renamed);

      tick(2 * MINUTE);
      const again = await runEventsFeed(en.options());
      expect(changed(again)).toEqual([]);
      expect(en.messages()).toHaveLength(1);

      const svRun = await runEventsFeed(sv.options());
      expect(outcomeOf(svRun, key)).toBe('posted');
      expect(sv.messages()[0]!.content).toBe(`<@&${ROLE}> Nytt eller ändrat i Eventor: **${renamed}**`);

      tick();
      event.event.status = 'canceled';
      event.event.statusId = '10';
      world.eventor.dataset.touchEvent(event.id, new Date(clock.getTime() - MINUTE));
      const cancelled = await runEventsFeed(en.options());
      expect(outcomeOf(cancelled, key)).toBe('edited');
      const [message] = en.messages();
      expect(en.messages()).toHaveLength(1);
      expect(message!.content).toContain(`Cancelled: **${renamed}**`);
      expect(message!.edits).toHaveLength(1);
    });
  });

  describe('activities', () => {
    let en: ReturnType<typeof server>;
    let sv: ReturnType<typeof server>;
    let activity: Activity;
    const name = 'Nattorientering i Hälleskogen';

    beforeAll(() => {
      en = server('activities-en', 'en');
      sv = server('activities-sv', 'sv', ROLE);
    });

    it('seeds on the first run and posts nothing', async () => {
      tick();
      for (const s of [en, sv]) {
        const run = await runActivitiesFeed(s.options());
        expect(run.seeded).toBe(true);
        expect(s.messages()).toHaveLength(0);
      }
    });

    it('posts a new activity once, with its name and registration deadline', async () => {
      const template = world.eventor.dataset.activities.find((a) => a.organisationId === home)!;
      const start = Math.floor((clock.getTime() + 10 * DAY) / 1000) * 1000;
      const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
      activity = {
        ...template,
        id: '99999',
        name,
        startTime: iso(start),
        registrationDeadline: iso(start - 2 * DAY),
        visibleFrom: iso(clock.getTime() - DAY),
        visibleTo: iso(start + 7 * DAY),
        registrationCount: 4,
        registrations: [],
      };
      world.eventor.dataset.activities.push(activity);
      tick();
      const key = `${ACTIVITIES_FEED}:99999`;
      const run = await runActivitiesFeed(en.options());
      expect(outcomeOf(run, key)).toBe('posted');
      expect(changed(run)).toEqual([key]);
      const [message] = en.messages();
      expect(en.messages()).toHaveLength(1);
      expect(visibleText(message!.embeds[0]!.title!)).toBe(name);
      expect(message!.content).toContain(`New club activity: **${name}**`);
      expect(message!.content).toContain(`<t:${(start - 2 * DAY) / 1000}:R>`);

      tick(2 * MINUTE);
      expect(changed(await runActivitiesFeed(en.options()))).toEqual([]);
      expect(en.messages()).toHaveLength(1);

      const svRun = await runActivitiesFeed(sv.options());
      expect(outcomeOf(svRun, key)).toBe('posted');
      const svMessage = sv.messages()[0]!;
      expect(svMessage.content.startsWith(`<@&${ROLE}> Ny klubbaktivitet: **${name}**`)).toBe(true);
      expect(sv.messages()).toHaveLength(1);
    });

    it('on the last day before registration closes, one reminder with the count so far', async () => {
      const deadline = Date.parse(activity.registrationDeadline!);
      setClock(deadline - 20 * HOUR);
      const key = `${ACTIVITIES_FEED}:99999:deadline`;
      const run = await runActivitiesFeed(en.options());
      expect(outcomeOf(run, key)).toBe('posted');
      const reminder = en.messages().find((m) => m.content.includes(`Last chance to register for **${name}**`))!;
      expect(reminder.content).toContain(
        `Last chance to register for **${name}**: registration closes <t:${deadline / 1000}:R>.`,
      );
      expect(reminder.content).toContain('4 registered so far.');
      tick(HOUR);
      expect(outcomeOf(await runActivitiesFeed(en.options()), key)).toBe('unchanged');
      setClock(deadline + HOUR);
      expect(outcomeOf(await runActivitiesFeed(en.options()), key)).toBeUndefined();
      // (Other club activities may have become visible meanwhile: count only this one's posts.)
      expect(en.messages().filter((m) => visibleText(m.embeds[0]?.title ?? '') === name)).toHaveLength(2);
    });
  });
});
