import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventorClient } from '../../src/eventor/client.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget, type PostTarget } from '../../src/feeds/delivery/poster.js';
import {
  guildsWithSubscribers,
  type PersonalRun,
  type PersonalRunOptions,
  personalFeed,
  runPersonalNotifications,
} from '../../src/feeds/kinds/personal/personal.js';
import { Subscriptions } from '../../src/feeds/subscriptions.js';
import { createLogger } from '../../src/log/logger.js';
import { formatClock } from '../../src/render/index.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type SandboxUser,
  visibleText,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import { startFeedWorld } from '../support/feed-world.js';
import { recentRacedEvent, upcomingClubEventWithoutStartList } from '../support/sandbox-events.js';
import { worldSql } from '../support/world-store.js';
import { testNow } from '../support/clock.js';

const WAIT = { timeoutMs: 10_000 };
const MINUTE = 60_000;
const ZONE = 'Europe/Stockholm';

function text(message: MessageView): string {
  return [
    message.content,
    ...message.embeds.flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`),
      e.footer?.text ?? '',
    ]),
  ].join('\n');
}

/** A member's outcomes of a run, but for items that were out before their DMs started (`seeded`). */
function kinds(run: PersonalRun, userId: string): string[] {
  return run.outcomes
    .filter((o) => o.userId === userId && o.outcome.kind !== 'seeded')
    .map((o) => `${o.itemKey}=${o.outcome.kind}`);
}

describe('personal DMs with /notify (sandbox Eventor, real discord.js, sandbox Discord DMs, real SQLite)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let client: EventorClient;
  let ledger: Ledger;
  let target: PostTarget;
  let home: string;
  /** An upcoming event whose start list is not out yet, a club runner in it and their start. */
  let upcoming: SandboxEvent;
  let starter: string;
  /** A recent event whose results come in during the test, and a club runner with an OK result. */
  let raced: SandboxEvent;
  let finisher: string;
  /** Linked and subscribed before the first run; closes their DMs before the start list is out. */
  let quiet: SandboxUser;
  /** Closed DMs from the start. */
  let closed: SandboxUser;
  const logLines: string[] = [];
  const log = createLogger({ level: 'debug', write: (line) => void logLines.push(line), now: () => clock });

  const tick = (ms = 6 * MINUTE): void => {
    clock = new Date(clock.getTime() + ms);
  };
  const options = (extra: Partial<PersonalRunOptions> = {}): PersonalRunOptions => ({
    guildId: world.guild.id,
    client,
    organisationId: home,
    ledger,
    target,
    now: clock,
    language: 'en',
    timeZone: ZONE,
    store: world.bot.store,
    discord: world.bot.client,
    log,
    ...extra,
  });
  const notify = (
    user: SandboxUser,
    locale: string,
    subcommand: 'on' | 'off' | 'show',
    opts: Record<string, string> = {},
  ): InteractionHandle =>
    world.discord.runCommand({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user,
      locale,
      name: 'notify',
      subcommand,
      options: opts,
    });
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const subscription = (user: SandboxUser) => new Subscriptions(world.bot.store).get(world.guild.id, user.id);
  const dmCount = (user: SandboxUser): number => world.discord.dms(user).length;
  const link = async (user: SandboxUser, personId: string): Promise<void> =>
    await world.bot.store.links.linkPerson(world.guild.id, user.id, personId, 'credentials');
  const startOf = (personId: string): { startTime: string } => {
    const list = world.eventor.dataset.details(upcoming).startList!;
    return list.classes.flatMap((c) => c.persons).find((p) => p.person?.id === personId)!.starts[0]! as {
      startTime: string;
    };
  };

  beforeAll(async () => {
    ({ world, client, ledger, target, home } = await startFeedWorld(() => clock));
    const dataset = world.eventor.dataset;
    const now = clock.getTime();

    upcoming = upcomingClubEventWithoutStartList(world.eventor, now);
    // The draw is generated from the event's seed: look at it once to pick a runner, then hide it again.
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    const runner = dataset
      .details(upcoming)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.starts[0]?.startTime);
    if (!runner?.person?.id) throw new Error('the upcoming event has no club runner with a start time');
    starter = runner.person.id;
    upcoming.hasStartList = false;
    upcoming.materialized = null;

    const past = recentRacedEvent(
      world.eventor,
      now,
      (list) =>
        list.classes.some((c) =>
          c.persons.some(
            (p) => p.organisation?.id === home && p.results[0]?.status === 'OK' && p.person?.id !== starter,
          ),
        ),
      6,
    );
    raced = past;
    finisher = dataset
      .details(raced)
      .resultList!.classes.flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === home && p.results[0]?.status === 'OK' && p.person?.id !== starter)!.person!
      .id!;
    raced.hasResults = false;
    raced.materialized = null;

    // The member: their own person (default) and a second one, as a parent with a child.
    await link(world.member, starter);
    await link(world.member, finisher);
    quiet = world.discord.createMember(world.guild.id, { username: 'tyst', globalName: 'Tyst', locale: 'en-GB' });
    await link(quiet, starter);
    closed = world.discord.createMember(world.guild.id, { username: 'stangd', globalName: 'Stängd', locale: 'en-GB' });
    await link(closed, starter);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('registers /notify with Swedish and Norwegian names, and /help lists it in every language', async () => {
    const command = world.discord.commands({ guildId: world.guild.id }).find((c) => c.name === 'notify');
    expect(command).toBeDefined();
    expect(command!.name_localizations?.['sv-SE']).toBe('notiser');
    expect(command!.name_localizations?.no).toBe('varsler');
    expect(command!.options?.map((o) => o.name)).toEqual(['on', 'off', 'show']);
    for (const [locale, name] of [
      ['en-GB', 'notify'],
      ['sv-SE', 'notiser'],
      ['no', 'varsler'],
    ] as const) {
      const help = await world.discord
        .runCommand({ guildId: world.guild.id, channelId: world.channel.id, user: world.member, locale, name: 'help' })
        .reply(WAIT);
      expect(renderMessageText(help), locale).toContain(`/${name}`);
    }
  });

  it('needs a linked Eventor person, and says to run /link', async () => {
    const sv = await privateText(notify(world.swedishMember, 'sv-SE', 'on'));
    expect(sv).toContain('`/koppla`');
    expect(sv).toContain('ditt Discord-konto måste först kopplas');
    expect(await privateText(notify(world.swedishMember, 'en-GB', 'show'))).toContain('run `/link`');
    expect(await subscription(world.swedishMember)).toBeNull();
    expect(dmCount(world.swedishMember)).toBe(0);
  });

  it('turns DMs on and off and shows them; turning on confirms by DM, once', async () => {
    const on = await privateText(notify(world.member, 'en-GB', 'on'));
    expect(on).toContain('Turned on: start-time and result DMs.');
    expect(on).toContain('Start times: on');
    expect(on).toContain('Results: on');
    expect(on).toMatch(/About: .+, .+/);
    const welcome = await world.discord.waitForDm(
      world.member,
      (m) => m.content.includes('You will get DMs here from'),
      WAIT,
    );
    expect(welcome.content).toContain(world.guild.name);
    expect(await subscription(world.member)).toMatchObject({
      starts: true,
      results: true,
      pausedReason: null,
      dmChannelId: welcome.channelId,
      locale: 'en-GB',
    });

    const off = await privateText(notify(world.member, 'en-GB', 'off', { what: 'results' }));
    expect(off).toContain('Turned off: result DMs.');
    expect(off).toContain('Start times: on');
    expect(off).toContain('Results: off');
    expect(await privateText(notify(world.member, 'en-GB', 'show'))).toContain('Results: off');
    expect(await subscription(world.member)).toMatchObject({ starts: true, results: false });

    expect(await privateText(notify(world.member, 'en-GB', 'on', { what: 'results' }))).toContain('Results: on');
    // Nothing new was turned on: no second confirmation.
    expect(await privateText(notify(world.member, 'en-GB', 'on'))).toContain('Start times: on');
    const confirmations = world.discord
      .dms(world.member)
      .filter((m) => m.content.includes('You will get DMs here from'));
    expect(confirmations.length).toBe(2);

    expect(await privateText(notify(quiet, 'en-GB', 'on', { what: 'starts' }))).toContain('Results: off');
    expect(await guildsWithSubscribers(world.bot.store)).toEqual([world.guild.id]);
  });

  it('a refused confirmation DM pauses the DMs and /notify says why and what to do', async () => {
    world.discord.closeDms(closed);
    const reply = await privateText(notify(closed, 'en-GB', 'on'));
    expect(reply).toContain('Discord refused my DM to you');
    expect(reply).toContain('**Paused**');
    expect(await subscription(closed)).toMatchObject({ pausedReason: 'dms-closed' });
    expect(await privateText(notify(closed, 'en-GB', 'show'))).toContain('run `/notify on` again');
    expect(dmCount(closed)).toBe(0);
  });

  it('the first run records what is already out and sends nothing', async () => {
    const before = dmCount(world.member);
    tick();
    const run = await runPersonalNotifications(options());
    expect(run.members).toBe(2);
    expect(run.seeded.sort()).toEqual(
      [
        personalFeed(world.member.id, 'results', finisher),
        personalFeed(world.member.id, 'results', starter),
        personalFeed(world.member.id, 'starts', finisher),
        personalFeed(world.member.id, 'starts', starter),
        personalFeed(quiet.id, 'starts', starter),
      ].sort(),
    );
    expect(run.outcomes).toEqual([]);
    expect(dmCount(world.member)).toBe(before);
    expect(world.discord.dms(closed)).toHaveLength(0);

    tick();
    const again = await runPersonalNotifications(options());
    expect(again.seeded).toEqual([]);
    expect(again.outcomes.filter((o) => o.outcome.kind !== 'unchanged' && o.outcome.kind !== 'seeded')).toEqual([]);
    expect(dmCount(world.member)).toBe(before);
  });

  it('sends "your start time is out" once when the start list appears, exactly once across a crash; closed DMs pause only that member', async () => {
    world.discord.closeDms(quiet);
    upcoming.hasStartList = true;
    upcoming.materialized = null;
    tick();
    const before = dmCount(world.member);
    // The process dies after Discord took the DM and before the ledger recorded it.
    const crashing = runPersonalNotifications(
      options({
        hooks: {
          afterSend: () => {
            throw new Error('process killed');
          },
        },
      }),
    );
    await expect(crashing).rejects.toThrow('process killed');
    expect(dmCount(world.member)).toBe(before + 1);

    // A restarted bot: a new ledger over the same database finds the DM by its marker.
    ledger = new Ledger(world.bot.store);
    const run = await runPersonalNotifications(options());
    expect(kinds(run, world.member.id)).toEqual([
      expect.stringMatching(new RegExp(`^start:${upcoming.id}:.*=recovered$`)),
    ]);
    expect(dmCount(world.member)).toBe(before + 1);

    const dm = world.discord.dms(world.member).at(-1)!;
    const startTime = startOf(starter).startTime;
    const clockText = formatClock(startTime, {
      language: 'en',
      timeZone: ZONE,
      now: clock,
      webUrl: client.instance.webUrl,
    });
    expect(dm.content).toBe(`Your start time for **${upcoming.name}** is out.`);
    expect(text(dm)).toContain(`Start: **${clockText}** (${ZONE}) · <t:${Math.floor(Date.parse(startTime) / 1000)}:D>`);
    expect(text(dm)).toContain('Class: **');
    expect(dm.embeds[0]!.url).toContain(`/Events/Show/${upcoming.id}`);
    expect(dm.embeds[0]!.footer?.text).toContain(world.guild.name);

    // The member whose DMs are closed is paused, no crash, and logged without the DM's text.
    expect(run.paused).toEqual([{ userId: quiet.id, reason: 'dms-closed', code: 50007 }]);
    expect(await subscription(quiet)).toMatchObject({ pausedReason: 'dms-closed' });
    const pausedLine = logLines.find((l) => l.includes('personal DMs paused'))!;
    expect(pausedLine).toContain('50007');
    expect(pausedLine).not.toContain(upcoming.name);

    tick();
    const again = await runPersonalNotifications(options());
    expect(kinds(again, world.member.id).every((k) => k.endsWith('=unchanged'))).toBe(true);
    expect(again.outcomes.some((o) => o.userId === quiet.id)).toBe(false);
    expect(dmCount(world.member)).toBe(before + 1);
  });

  it('edits the start-time DM when the start time changes', async () => {
    const dmsBefore = dmCount(world.member);
    const start = startOf(starter);
    start.startTime = new Date(Date.parse(start.startTime) + 7 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
    tick();
    const run = await runPersonalNotifications(options());
    expect(kinds(run, world.member.id).filter((k) => k.endsWith('=edited'))).toHaveLength(1);
    expect(dmCount(world.member)).toBe(dmsBefore);
    const dm = world.discord.dms(world.member).find((m) => m.content.includes(upcoming.name))!;
    expect(dm.edits).toHaveLength(1);
    const clockText = formatClock(start.startTime, {
      language: 'en',
      timeZone: ZONE,
      now: clock,
      webUrl: client.instance.webUrl,
    });
    expect(text(dm)).toContain(`**${clockText}**`);
  });

  it('a start time that was already out when the DMs started is sent once it moves', async () => {
    const feeds = [starter, finisher].map((id) => personalFeed(world.member.id, 'starts', id));
    const seeded = (await Promise.all(feeds.map((feed) => ledger.rows(world.guild.id, feed))))
      .flat()
      .find((r) => r.state === 'seeded' && !r.itemKey.startsWith(`start:${upcoming.id}:`));
    if (!seeded)
      throw new Error(
        "the sandbox has no other upcoming start of the member's persons that was out before their DMs started",
      );
    const personId = seeded.feed.split(':').at(-1)!;
    const event = world.eventor.dataset.event(seeded.itemKey.split(':')[1]!)!;
    const start = world.eventor.dataset
      .details(event)
      .startList!.classes.flatMap((c) => c.persons)
      .find((p) => p.person?.id === personId)!.starts[0]!;
    start.startTime = new Date(Date.parse(start.startTime!) + 4 * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const before = dmCount(world.member);
    tick();
    const run = await runPersonalNotifications(options());
    expect(kinds(run, world.member.id).filter((k) => !k.endsWith('=unchanged'))).toEqual([`${seeded.itemKey}=posted`]);
    expect(dmCount(world.member)).toBe(before + 1);
    expect(world.discord.dms(world.member).at(-1)!.content).toContain(event.name);
    tick();
    const again = await runPersonalNotifications(options());
    expect(kinds(again, world.member.id).every((k) => k.endsWith('=unchanged'))).toBe(true);
    expect(dmCount(world.member)).toBe(before + 1);
  });

  it('a member paused for closed DMs stays paused, without retries, until /notify on; then gets what they missed, once', async () => {
    const refusals = (): number => world.discord.requests().filter((r) => r.status === 403 && r.code === 50007).length;
    const refused = refusals();
    tick();
    await runPersonalNotifications(options());
    expect(refusals()).toBe(refused);
    const shown = await privateText(notify(quiet, 'en-GB', 'show'));
    expect(shown).toContain('**Paused** since');
    expect(shown).toContain('Discord refused my DMs to you');

    world.discord.closeDms(quiet, false);
    const on = await privateText(notify(quiet, 'en-GB', 'on', { what: 'starts' }));
    expect(on).not.toContain('Paused');
    expect((await subscription(quiet))?.pausedReason).toBeNull();
    tick();
    const run = await runPersonalNotifications(options());
    // The start refused while paused, and the moved one of the test before.
    const posted = kinds(run, quiet.id);
    expect(posted).toContainEqual(expect.stringMatching(new RegExp(`^start:${upcoming.id}:.*=posted$`)));
    expect(posted.every((k) => /^start:.*=posted$/.test(k))).toBe(true);
    tick();
    const again = await runPersonalNotifications(options());
    expect(kinds(again, quiet.id).every((k) => k.endsWith('=unchanged'))).toBe(true);
    const dms = world.discord.dms(quiet);
    // One confirmation when they subscribed, one when they turned the DMs on again.
    expect(dms.filter((m) => m.content.includes('You will get DMs here'))).toHaveLength(2);
    expect(dms.filter((m) => m.content.includes('start time'))).toHaveLength(posted.length);
  });

  it('sends "the result is in" once, naming a linked person who is not the default, and edits it on a correction', async () => {
    raced.hasResults = true;
    raced.materialized = null;
    tick();
    const before = dmCount(world.member);
    const run = await runPersonalNotifications(options());
    const posted = kinds(run, world.member.id).filter((k) => k.endsWith('=posted'));
    expect(posted).toEqual([expect.stringMatching(new RegExp(`^result:${raced.id}:`))]);
    expect(dmCount(world.member)).toBe(before + 1);
    const dm = world.discord.dms(world.member).at(-1)!;
    const person = world.eventor.dataset.person(finisher)!.person;
    expect(visibleText(dm.content)).toBe(
      `The result of **${person.name.given} ${person.name.family}** in **${raced.name}** is in.`,
    );
    expect(text(dm)).toMatch(/Place: .*\*\*\d+ of \d+\*\*/);
    expect(text(dm)).toMatch(/Time: \*\*\d+:\d\d\*\*/);

    tick();
    const again = await runPersonalNotifications(options());
    expect(kinds(again, world.member.id).every((k) => k.endsWith('=unchanged'))).toBe(true);
    expect(dmCount(world.member)).toBe(before + 1);

    world.eventor.dataset.correctResult(raced.id, finisher, { status: 'MissingPunch' });
    tick();
    const corrected = await runPersonalNotifications(options());
    expect(kinds(corrected, world.member.id).filter((k) => k.endsWith('=edited'))).toEqual([
      expect.stringMatching(new RegExp(`^result:${raced.id}:`)),
    ]);
    expect(dmCount(world.member)).toBe(before + 1);
    const edited = world.discord.dms(world.member).at(-1)!;
    expect(edited.edits).toHaveLength(1);
    expect(text(edited)).toContain('Status: **MP**');
  });

  it('a restarted bot (new ledger and poster over the same database) sends nothing twice', async () => {
    const counts = [world.member, quiet].map(dmCount);
    ledger = new Ledger(world.bot.store);
    tick();
    const run = await runPersonalNotifications(options({ target: discordTarget(world.bot.client) }));
    expect(run.outcomes.length).toBeGreaterThan(0);
    expect(run.outcomes.every((o) => o.outcome.kind === 'unchanged' || o.outcome.kind === 'seeded')).toBe(true);
    expect([world.member, quiet].map(dmCount)).toEqual(counts);
  });

  it('turning a kind off and on again starts it afresh instead of sending what came out in between', async () => {
    await privateText(notify(world.member, 'en-GB', 'off', { what: 'results' }));
    expect(
      await worldSql(world, 'SELECT feed FROM feed_state WHERE guild_id = ? AND feed = ?', [
        world.guild.id,
        personalFeed(world.member.id, 'results', finisher),
      ]),
    ).toEqual([]);
    await privateText(notify(world.member, 'en-GB', 'on', { what: 'results' }));
    const before = dmCount(world.member);
    tick();
    const run = await runPersonalNotifications(options());
    expect(run.seeded.sort()).toEqual(
      [personalFeed(world.member.id, 'results', finisher), personalFeed(world.member.id, 'results', starter)].sort(),
    );
    expect(dmCount(world.member)).toBe(before);
  });

  it('/forget-me deletes the subscriptions and the ledger of the DMs', async () => {
    expect(await subscription(world.member)).not.toBeNull();
    const ask = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'en-GB',
        name: 'forget-me',
      })
      .reply(WAIT);
    const confirm = JSON.stringify(ask.components).match(/"(forget-me:confirm:[^"]*)"/)![1]!;
    const done = await world.discord
      .clickButton({ message: ask.id, customId: confirm, user: world.member, locale: 'en-GB' })
      .reply(WAIT);
    expect(renderMessageText(done)).toContain('the bot holds nothing about you any more');
    expect(await subscription(world.member)).toBeNull();
    {
      for (const table of ['notify_subscriptions', 'posted_items', 'feed_state']) {
        for (const row of (await worldSql(world, `SELECT * FROM "${table}"`)) as Array<Record<string, unknown>>) {
          expect(
            Object.values(row)
              .map(String)
              .some((v) => v.includes(world.member.id)),
            `${table} ${JSON.stringify(row)}`,
          ).toBe(false);
        }
      }
      // Others keep theirs.
      expect(
        await worldSql(world, 'SELECT user_id FROM notify_subscriptions WHERE user_id = ?', [quiet.id]),
      ).toHaveLength(1);
    }
    expect(await privateText(notify(world.member, 'en-GB', 'on'))).toContain('run `/link`');
    tick();
    const run = await runPersonalNotifications(options());
    expect(run.outcomes.some((o) => o.userId === world.member.id)).toBe(false);
  });
});
