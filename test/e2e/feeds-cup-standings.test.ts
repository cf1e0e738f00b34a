/**
 * The cups' standings posts (docs/admins.md#cup-standings-posts) through the real bot: `/cup` and
 * `/feeds` as an admin types them, the real scheduler on a clock the test moves, the real discord.js
 * client against the sandbox Discord, the season's races asked of the sandbox Eventor over HTTP and
 * kept in the real store. Only the cups admins chose (`post: True`) are posted; each with a race
 * counted at the next run, its post edited in place once a race's results count (never a second
 * message, nothing while the race is run without results), a run with nothing new asks Eventor
 * nothing, a deleted cup's post or one no longer posted stays as it last was, and a restart (the
 * process killed after Discord got a post, before the ledger recorded it) neither posts it again
 * nor loses the edits that follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageRace } from '../../harness/demo/scheduler-session.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import { discordTarget } from '../../src/feeds/delivery/poster.js';
import { runCupStandingsFeed } from '../../src/feeds/kinds/cup-standings/cup-standings.js';
import { CUP_STANDINGS_FEED, cupStandingsKey } from '../../src/feeds/kinds/cup-standings/items.js';
import { addDays, localToday } from '../../src/time/days.js';
import { testNow } from '../support/clock.js';
import { restartedScheduler } from '../support/feed-world.js';
import { upcomingClubEventWithoutStartList } from '../support/sandbox-events.js';
import { startTestWorld } from '../support/test-world.js';
import { reopenWorldStore } from '../support/world-store.js';

const WAIT = { timeoutMs: 30_000 };
const HOUR = 3_600_000;
const ZONE = 'Europe/Stockholm';

describe('cup standings posts (real scheduler, real discord.js, sandboxes, real store)', () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let channelId: string;
  let race: SandboxEvent;
  let stage: ReturnType<typeof stageRace>;
  const today = () => localToday(clock, ZONE);
  const posts = (): MessageView[] => world.discord.messages(channelId);
  const titles = () => posts().map((m) => m.embeds[0]?.title);
  const tick = () => world.bot.scheduler.tick(clock, { force: true });
  /** A correction in the race: the club's best placed runner still OK mispunched after all. */
  const mispunchBestOfClub = () => {
    const home = world.eventor.dataset.homeClub.id;
    const [best] = world.eventor.dataset
      .details(race)
      .resultList!.classes.flatMap((c) => c.persons)
      .filter((p) => p.organisation?.id === home && p.results[0]?.status === 'OK' && p.person?.id)
      .sort((a, b) => (a.results[0]!.position ?? 99) - (b.results[0]!.position ?? 99));
    world.eventor.dataset.correctResult(race.id, best!.person!.id!, { status: 'MissingPunch' });
  };

  const run = (name: string, subcommand: string, options: Record<string, string | number | boolean> = {}) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        name,
        subcommand,
        options,
        locale: 'en-GB',
      })
      .answer(WAIT);

  beforeAll(async () => {
    world = await startTestWorld({ now: () => clock, eventorFollowsClock: true });
    await world.bot.store.servers.updateGuildSettings(world.guild.id, { locale: 'en', timeZone: ZONE });
    channelId = world.discord.createTextChannel(world.guild.id, { name: 'cupen' }).id;
    // A race of the club in the coming days, its start list and results published when the test says.
    race = upcomingClubEventWithoutStartList(world.eventor, clock.getTime());
    stage = stageRace(world.eventor.dataset, race);
    // One cup over the season so far (races counted already) to be posted, said to wait for the
    // kind's channel; one whose days begin tomorrow (none yet), posted from its edit on; one over the
    // season so far that nobody asked to post.
    const made = async (name: string, from: string, post?: boolean) => {
      const options = { name, scoring: 'place', from, to: addDays(today(), 60), ...(post ? { post } : {}) };
      const reply = renderMessageText(await run('cup', 'create', options));
      expect(reply).toContain(`Cup **${name}** created.`);
      return reply;
    };
    expect(await made('Klubbmästerskapet', addDays(today(), -300), true)).toContain(
      'Its standings are posted once cup standings have a channel',
    );
    expect(await made('Framtidscupen', addDays(today(), 1))).not.toContain('standings are posted');
    expect(await made('Tystcupen', addDays(today(), -300))).not.toContain('standings are posted');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('/feeds on says the chosen cups are posted at the next run, not "from now"', async () => {
    const reply = renderMessageText(await run('feeds', 'on', { kind: CUP_STANDINGS_FEED, channel: channelId }));
    expect(reply).toContain(
      `Cup standings: on, posted in <#${channelId}>. The standings of each cup set to be posted (/cup edit with post: True)`,
    );
    expect(reply).toContain('are posted there at the next hourly run, not waiting for news');
    expect(reply).not.toContain('nothing already out is posted');
  });

  it('/cup edit post: True says where its standings go; /cup show marks the posted cups', async () => {
    const reply = renderMessageText(await run('cup', 'edit', { cup: 'Framtidscupen', post: true }));
    expect(reply).toContain(`Its standings are posted in <#${channelId}> at the next hourly run`);
    const list = (await run('cup', 'show')).embeds[0]!.description!;
    const posted = list
      .split('\n\n')
      .filter((block) => block.includes('· Standings posted'))
      .map((block) => block.split('\n')[0]);
    expect(posted).toEqual(['**Framtidscupen**', '**Klubbmästerskapet**']);
  });

  it('the first run posts each cup with a race counted, as /season cup shows it; a cup with none waits', async () => {
    await tick();
    expect(titles()).toEqual(['Klubbmästerskapet · standings']);
    const shown = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        name: 'season',
        subcommand: 'cup',
        options: { cup: 'Klubbmästerskapet' },
        locale: 'en-GB',
      })
      .answer(WAIT);
    expect(posts()[0]!.embeds[0]!.description).toBe(shown.embeds[0]!.description);
    expect(posts()[0]!.embeds[0]!.description).toMatch(/^1\. \*\*[^*]+\*\*: \d+ \(\d+ races?\)$/m);
    // No role chosen: nobody is mentioned.
    expect(posts()[0]!.content).not.toMatch(/<@/);
  });

  it('a second run in the same hour posts nothing, edits nothing and asks Eventor nothing', async () => {
    const before = world.eventor.requests.count();
    await tick();
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.edits).toHaveLength(0);
    expect(world.eventor.requests.count()).toBe(before);
  });

  it("after the race's results, the cup's post is edited in place, and a cup whose first races now count is posted", async () => {
    // Race day, its start list out, its results not yet: the race does not count yet, nothing changes.
    stage.publishStartList();
    clock = new Date(Date.parse(race.event.start!) + HOUR);
    await tick();
    expect(titles()).toEqual(['Klubbmästerskapet · standings']);
    expect(posts()[0]!.edits).toHaveLength(0);
    clock = new Date(Date.parse(race.event.start!) + 3 * HOUR);
    stage.publishResults();
    await tick();
    expect(titles()).toEqual(['Klubbmästerskapet · standings', 'Framtidscupen · standings']);
    const [season, future] = posts();
    expect(season!.edits).toHaveLength(1);
    // Both name the race as the latest that counts.
    for (const post of [season!, future!]) expect(renderMessageText(post)).toContain(`the latest ${race.name} (`);
    // An hour on, the results are asked again (corrections are likely), unchanged: no edit.
    clock = new Date(clock.getTime() + HOUR);
    await tick();
    expect(posts()).toHaveLength(2);
    expect(posts().map((p) => p.edits.length)).toEqual([1, 0]);
  });

  it("a deleted cup's post stays as it was, and /cup delete says where it is", async () => {
    const asked = await run('cup', 'delete', { cup: 'Klubbmästerskapet' });
    const confirm = (asked.components[0] as { components: Array<{ custom_id: string }> }).components[0]!.custom_id;
    const deleted = await world.discord
      .clickButton({ message: asked.id, customId: confirm, user: world.admin, locale: 'en-GB' })
      .answer(WAIT);
    const [kept, other] = posts();
    expect(renderMessageText(deleted)).toContain('Cup **Klubbmästerskapet** deleted.');
    expect(renderMessageText(deleted)).toContain(
      `[Its standings post](https://discord.com/channels/${world.guild.id}/${channelId}/${kept!.id}) stays as it last was`,
    );
    // A correction in the race both cups count.
    const before = renderMessageText(kept!);
    mispunchBestOfClub();
    clock = new Date(clock.getTime() + HOUR);
    await tick();
    // The deleted cup's post is as it last was; the living cup's is edited, still one message.
    expect(posts()).toHaveLength(2);
    expect(renderMessageText(posts()[0]!)).toBe(before);
    expect(posts()[0]!.edits).toHaveLength(1);
    expect(posts()[1]!.id).toBe(other!.id);
    expect(posts()[1]!.edits).toHaveLength(1);
  });

  it('/feeds test posts the newest standings once, as a test post that never stands in for the real one', async () => {
    const reply = renderMessageText(await run('feeds', 'test', { kind: CUP_STANDINGS_FEED }));
    expect(reply).toContain(`<#${channelId}>`);
    expect(titles()).toEqual([
      'Klubbmästerskapet · standings',
      'Framtidscupen · standings',
      'Framtidscupen · standings',
    ]);
    expect(posts()[2]!.embeds[0]!.description).toBe(posts()[1]!.embeds[0]!.description);
    // The next run edits the real post only, and posts nothing new.
    clock = new Date(clock.getTime() + HOUR);
    await tick();
    expect(posts()).toHaveLength(3);
  });

  it('a restart after the process died between Discord getting a post and the ledger recording it: found, not posted again, then edited', async () => {
    const name = 'Vårcupen';
    expect(
      renderMessageText(
        await run('cup', 'create', {
          name,
          scoring: 'winner-ratio',
          from: addDays(today(), -300),
          to: addDays(today(), 60),
          post: true,
        }),
      ),
    ).toContain(`Cup **${name}** created.`);
    const ledger = new Ledger(world.bot.store);
    const client = new EventorClient({
      instance: customInstance(world.eventor.baseUrl),
      apiKey: world.eventor.apiKey,
      now: () => clock.getTime(),
    });
    // The process is killed the moment Discord has the new cup's post.
    await expect(
      runCupStandingsFeed({
        guildId: world.guild.id,
        channelId,
        client,
        organisationId: world.eventor.dataset.homeClub.id,
        ledger,
        target: discordTarget(world.bot.client),
        now: clock,
        language: 'en',
        timeZone: ZONE,
        store: world.bot.store,
        hooks: {
          afterSend: () => {
            throw new Error('process killed');
          },
        },
      }),
    ).rejects.toThrow('process killed');
    expect(titles()).toHaveLength(4);
    const sent = posts()[3]!;
    expect(sent.embeds[0]!.title).toBe(`${name} · standings`);
    const cupId = (await world.bot.services.cups.list(world.guild.id)).find((cup) => cup.name === name)!.id;
    expect(
      (await ledger.get({ guildId: world.guild.id, feed: CUP_STANDINGS_FEED, itemKey: cupStandingsKey(cupId) }))?.state,
    ).not.toBe('posted');

    const ids = posts().map((p) => p.id);

    // The new process: its own store on the same database, a new scheduler and Eventor access.
    const store = await reopenWorldStore(world, () => clock);
    const { restarted, stop } = restartedScheduler(world, () => clock, 'en', { store, followClock: true });
    try {
      clock = new Date(clock.getTime() + HOUR);
      await restarted.tick(clock, { force: true });
      // Found by its marker, recorded, not sent again.
      expect(posts().map((p) => p.id)).toEqual(ids);
      expect(
        await new Ledger(store).get({
          guildId: world.guild.id,
          feed: CUP_STANDINGS_FEED,
          itemKey: cupStandingsKey(cupId),
        }),
      ).toMatchObject({
        state: 'posted',
        messageId: sent.id,
      });
      const edits = posts().map((p) => p.edits.length);
      // Another correction: the restarted bot edits the living cups' posts in place.
      mispunchBestOfClub();
      clock = new Date(clock.getTime() + HOUR);
      await restarted.tick(clock, { force: true });
      expect(posts()).toHaveLength(4);
      expect(posts()[1]!.edits).toHaveLength(edits[1]! + 1);
      expect(posts()[3]!.edits).toHaveLength(edits[3]! + 1);
      // The deleted cup's post and the test post stay as they were.
      expect(posts()[0]!.edits).toHaveLength(edits[0]!);
      expect(posts()[2]!.edits).toHaveLength(edits[2]!);
    } finally {
      await stop();
      await store.close();
    }
  });

  it("post: False stops a cup's edits: its post stays as it last was, the others go on", async () => {
    const reply = renderMessageText(await run('cup', 'edit', { cup: 'Framtidscupen', post: false }));
    expect(reply).toContain('Its standings are no longer posted; a post it had stays as it last was.');
    const before = posts().map((p) => p.edits.length);
    const text = renderMessageText(posts()[1]!);
    mispunchBestOfClub();
    clock = new Date(clock.getTime() + HOUR);
    await tick();
    expect(posts()).toHaveLength(4);
    expect(renderMessageText(posts()[1]!)).toBe(text);
    expect(posts().map((p) => p.edits.length)).toEqual([before[0], before[1], before[2], before[3]! + 1]);
  });
});
