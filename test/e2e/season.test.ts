/**
 * /season end to end (docs/members.md#season-your-year-and-the-clubs-table): the real bot against
 * the sandbox Discord and the sandbox Eventor. A member's year and the club's table with their
 * pictures and words, from the club's results of the races Eventor has; what that costs Eventor
 * cold, and that asking again costs nothing (docs/season.md#what-it-asks-eventor).
 */
import { loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEASON_HEIGHT, SEASON_WIDTH } from '../../src/charts/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import { testNow } from '../support/clock.js';
import { busiestSeason, type ClubStart, clubStarts } from '../support/season-data.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 30_000 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("/season: a member's year and the club's table", () => {
  let world: LoopbackWorld;
  let clock = testNow();
  let season: { year: number; personId: string; name: string; starts: ClubStart[] };

  const run = (
    subcommand: string,
    options: Record<string, string | number | boolean> = {},
    user = world.member,
    locale = 'en-GB',
  ) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        name: 'season',
        subcommand,
        options,
        locale,
      })
      .answer(WAIT);
  const pictures = (view: MessageView) => world.discord.attachments(view.id);

  beforeAll(async () => {
    world = await startTestWorld({ now: () => clock, eventorFollowsClock: true });
    season = busiestSeason(world.eventor);
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, season.personId, 'admin');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it("a member's own year, privately: races, wins and podiums, best placings, and the picture with words under it", async () => {
    world.eventor.requests.clear();
    const reply = await run('member', { year: season.year });
    expect(reply.ephemeral).toBe(true);
    const text = renderMessageText(reply);
    expect(reply.embeds[0]!.title).toBe(`Season ${season.year} · ${season.name}`);
    const races = season.starts.length;
    expect(text).toContain(`**${races} ${races === 1 ? 'race' : 'races'}**`);
    const wins = season.starts.filter((s) => s.position === 1).length;
    expect(text).toContain(`${wins} ${wins === 1 ? 'win' : 'wins'}`);
    expect(text).toContain('By level:');
    expect(text).toContain('The year in a picture');
    const files = pictures(reply);
    expect(files.map((f) => f.name)).toEqual(['season.png']);
    expect(reply.embeds[0]!.image?.url).toBe(files[0]!.url);
    const image = await loadImage(files[0]!.bytes);
    expect([image.width, image.height]).toEqual([SEASON_WIDTH, SEASON_HEIGHT]);
    expect(files[0]!.description).toContain(season.name);
    expect(files[0]!.description).toContain('share of the class beaten');
  });

  it('cold, at most one request per event with club results and a few to find them; asked again, none', async () => {
    // The first answer above was cold (the bot had asked nothing): every event of the club's year once.
    const events = new Set(clubStarts(world.eventor, season.year).map((s) => s.event.id));
    const results = world.eventor.requests.count('/api/results/organisation');
    expect(results).toBeGreaterThanOrEqual(events.size);
    const finding = world.eventor.requests.count('/api/entries') + world.eventor.requests.count('/api/events');
    expect(finding).toBeLessThanOrEqual(3);
    world.eventor.requests.clear();
    await run('member', { year: season.year });
    await run('club', { year: season.year });
    expect(world.eventor.requests.count()).toBe(0);
  });

  it("the club's table: most starts, wins and podiums, by class, and its picture", async () => {
    const reply = await run('club', { year: season.year, share: true });
    expect(reply.ephemeral).toBe(false);
    const text = renderMessageText(reply);
    expect(reply.embeds[0]!.title).toBe(`Club season ${season.year} · ${world.eventor.dataset.homeClub.name}`);
    const all = clubStarts(world.eventor, season.year);
    const starts = all.length;
    expect(text).toContain(`${starts} ${starts === 1 ? 'start' : 'starts'}`);
    expect(text).toContain('**Most starts**');
    // The runner with the most starts leads.
    expect(text).toContain(`1. **${season.name}**: ${season.starts.length} starts`);
    expect(text).toContain('**By class**');
    const files = pictures(reply);
    expect(files.map((f) => f.name)).toEqual(['club-season.png']);
    expect(files[0]!.description).toContain(`${starts} starts`);
  });

  it('in Swedish, and about another club member picked from autocomplete', async () => {
    const other = clubStarts(world.eventor, season.year).find((s) => s.personId !== season.personId)!;
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      locale: 'sv-SE',
      name: 'season',
      subcommand: 'member',
      focused: 'member',
      value: other.name,
      timeoutMs: 10_000,
    });
    expect(choices.map((c) => c.value)).toContain(other.personId);
    const reply = await run('member', { member: other.personId, year: season.year }, world.member, 'sv-SE');
    expect(reply.embeds[0]!.title).toBe(`Säsongen ${season.year} · ${other.name}`);
    expect(renderMessageText(reply)).toContain('Året i en bild');
  });

  it('results are asked again only in the days after a race, when corrections are likely; then never', async () => {
    const source = `${world.eventor.baseUrl} ${world.eventor.dataset.homeClub.id}`;
    const rows = async () => world.bot.store.season.events(world.guild.id, source, '1900-01-01', '2999-12-31');
    const asked = () =>
      new Set(
        world.eventor.requests
          .filter((r) => r.path.toLowerCase() === '/api/results/organisation')
          .map((r) => r.query['eventId']!),
      );
    const lastRace = (row: { event: string }) => {
      const event = JSON.parse(row.event) as { races: Array<{ date: string | null }>; start: string | null };
      return Math.max(...[event.start, ...event.races.map((r) => r.date)].filter((d) => d !== null).map(Date.parse));
    };
    // Kept as final once asked after the days of corrections that follow the event's last race, and only then.
    const first = await rows();
    expect(first.length).toBeGreaterThan(0);
    for (const row of first)
      if (row.fetchedAt !== null)
        expect(row.settled, row.eventId).toBe(Date.parse(row.fetchedAt) >= lastRace(row) + 3 * DAY);
    const settledFirst = first.filter((r) => r.settled).map((r) => r.eventId);
    expect(settledFirst.length).toBeGreaterThan(0);

    // Two hours on: what is settled is not asked again.
    clock = new Date(clock.getTime() + 2 * HOUR);
    world.eventor.requests.clear();
    await run('club', { year: season.year });
    const again = asked();
    for (const id of settledFirst) expect(again.has(id), id).toBe(false);

    // Four days on, every race of that first answer is past its corrections: asked once more, kept as final.
    clock = new Date(clock.getTime() + 4 * DAY);
    await run('club', { year: season.year });
    const past = (await rows()).filter((r) => r.fetchedAt !== null && lastRace(r) + 3 * DAY <= clock.getTime());
    for (const row of past) expect(row.settled, row.eventId).toBe(true);
    clock = new Date(clock.getTime() + 2 * HOUR);
    world.eventor.requests.clear();
    await run('club', { year: season.year });
    const later = asked();
    for (const row of past) expect(later.has(row.eventId), row.eventId).toBe(false);
  });

  it('Eventor down: a season looked at before still answers from what is kept; one never looked at says Eventor is down', async () => {
    // A new day: the year is looked at again, and Eventor does not answer.
    clock = new Date(clock.getTime() + DAY);
    const down = world.eventor.faults.add({ kind: 'status', status: 503 });
    try {
      const kept = await run('club', { year: season.year });
      expect(kept.embeds[0]?.title).toBe(`Club season ${season.year} · ${world.eventor.dataset.homeClub.name}`);
      expect(renderMessageText(kept)).toContain('**Most starts**');
      const never = await run('club', { year: season.year - 1 });
      expect(renderMessageText(never)).toContain('Eventor is not answering right now.');
    } finally {
      world.eventor.faults.remove(down);
    }
  });

  it('a year still to come and a member without a link get one clear message each, and nothing is asked', async () => {
    world.eventor.requests.clear();
    const future = await run('member', { year: season.year + 5 });
    expect(renderMessageText(future)).toContain('Pick a year from 2000 to');
    const unlinked = await run('member', { year: season.year }, world.admin);
    expect(unlinked.ephemeral).toBe(true);
    expect(renderMessageText(unlinked)).toMatch(/link/i);
    expect(world.eventor.requests.count()).toBe(0);
  });
});
