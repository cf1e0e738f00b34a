/**
 * Race day, live, against a LiveResultat that is not to be trusted (docs/live-results.md#what-is-not-trusted,
 * docs/live-results.md#race-day-in-discord), end to end through the real bot (discord.js, the
 * store, the scheduler and the pollers) on the sandbox Discord, Eventor and LiveResultat:
 *
 * - an admin gives a race's competition with `/live link`; an address of another site, text that
 *   is no address, another day's competition and a member without Manage Server are refused,
 *   nothing changed; only the id of a LiveResultat address is used, asked of the operator's service;
 * - hostile names (mentions, markdown, 5,000 characters) in the runner, class and competition reach
 *   the board and the finish messages as plain text, mentioning nobody;
 * - a LiveResultat that fails (5xx, an endless body, text that is not JSON, another competition's answer) is
 *   asked less and less often, the board says it shows the last state, the admins are told once
 *   and never again, and the board picks up when it answers;
 * - a member's finish DM is only ever about a runner matched to their own linked person: a member
 *   whose person's row no longer matches the start list (renamed) gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText, type SandboxChannel } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import type {
  LiveCompetitionRecord,
  LiveRaceRecord,
  LiveRunnerRecord,
} from '../../harness/sandbox/liveresultat/index.js';
import { testNow } from '../support/clock.js';
import { postForgedButton } from '../support/forged-button.js';
import { clubRace, raceSpan } from '../support/live-world.js';

const WAIT = { timeoutMs: 15_000 };
const SECOND = 1_000;
const MINUTE = 60_000;
const HOSTILE = `@everyone <@&1> **Astrid** [klick](https://evil.example) \`\`\`\n# Rubrik\u202E ${'x'.repeat(5000)}`;

/** What Discord would turn into a mention, a link or a heading, or show 5,000 characters of. */
function expectHarmless(message: MessageView): void {
  const text = [message.content, ...message.embeds.flatMap((e) => [e.title ?? '', e.description ?? ''])].join('\n');
  expect(text).not.toContain('@everyone');
  expect(text).not.toMatch(/<@&\d/);
  expect(text).not.toMatch(/(?<!\\)\*\*Astrid(?<!\\)\*\*/);
  expect(text).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
  expect(text).not.toContain('\u202E');
  expect(text).not.toMatch(/^# Rubrik/m);
  expect(text).not.toContain('x'.repeat(200));
}

describe('race day, live, against a hostile and failing LiveResultat (real bot, sandboxes)', () => {
  let clock = testNow().getTime();
  const now = () => new Date(clock);
  let world: LoopbackWorld;
  let board: SandboxChannel;
  let admins: SandboxChannel;
  let competition: LiveCompetitionRecord;
  let race: LiveRaceRecord;
  let event: SandboxEvent;
  let span: { firstStart: number; lastFinalAt: number };
  let hostile: LiveRunnerRecord;
  let plain: LiveRunnerRecord;

  const command = (
    name: string,
    subcommand: string,
    options: Record<string, string> = {},
    user = world.admin,
  ): Promise<MessageView> =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        locale: 'en-GB',
        name,
        subcommand,
        options,
      })
      .reply(WAIT);
  const row = async () =>
    (await world.bot.store.live.races(world.guild.id, competition.date, competition.date)).find(
      (r) => r.eventId === event.id,
    )!;
  const boards = () => world.discord.messages(board.id).filter((m) => m.embeds.length > 0);
  // The notice that LiveResultat fails (in the server's language, Swedish).
  const notices = () =>
    world.discord.messages(admins.id).filter((m) => m.content.includes('Liveresultat svarar inte boten'));
  const liveDms = (user: typeof world.member) =>
    world.discord.dms(user).filter((m) => !m.content.includes('You will get DMs here from'));

  beforeAll(async () => {
    world = await startLoopbackWorld({ now, live: {}, eventorFollowsClock: true });
    const dataset = world.eventor.dataset;
    const home = dataset.homeClub.organisation.shortName ?? dataset.homeClub.name;
    ({ competition, race } = clubRace({ dataset, live: world.live!, homeClub: home }));
    span = raceSpan(race);
    event = dataset.event(competition.eventId!)!;
    event.hasStartList = true;
    event.hasResults = false;
    event.materialized = null;
    const finishers = race.classes
      .flatMap((c) => c.runners)
      .filter((r) => r.club === home && !r.ghost && r.personId !== null && r.final?.status === 0 && r.start !== null);
    hostile = finishers[0]!;
    plain = finishers.find((r) => r.personId !== hostile.personId && r.name !== hostile.name)!;
    // Names as hostile as an organiser's upload can make them, before LiveResultat serves any of it.
    // Every row of that runner (a double upload's ghost too), as an upload renames them all.
    const original = hostile.name;
    for (const r of race.classes.flatMap((c) => c.runners)) if (r.name === original) r.name = HOSTILE;
    const cls = race.classes.find((c) => c.runners.includes(hostile))!;
    cls.name = `${HOSTILE} ${cls.name}`;
    competition.name = HOSTILE;
    clock = span.firstStart - 20 * MINUTE;
    board = world.discord.createTextChannel(world.guild.id, { name: 'live' });
    admins = world.discord.createTextChannel(world.guild.id, { name: 'admins' });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('an uncertain match is offered to the admins once; its button is theirs alone', async () => {
    await command('setup', 'channel', { kind: 'admin', channel: admins.id });
    await command('feeds', 'on', { kind: 'live', channel: board.id });
    await command('feeds', 'live', { finishes: 'on' });
    await world.bot.scheduler.tick(now(), { force: true });
    // The competition's hostile name scores little: the bot asks, in the admins' channel.
    expect(await row()).toMatchObject({ competitionId: null, how: 'uncertain' });
    const offers = world.discord.messages(admins.id).filter((m) => m.components.length > 0);
    expect(offers).toHaveLength(1);
    expectHarmless(offers[0]!);
    clock += 5 * MINUTE;
    await world.bot.scheduler.tick(now(), { force: true });
    expect(world.discord.messages(admins.id).filter((m) => m.components.length > 0)).toHaveLength(1);

    const button = (offers[0]!.components[0] as { components: Array<{ custom_id: string }> }).components[0]!;
    expect(button.custom_id).toBe(`live:pick:${event.id}:${(await row()).raceId}:${competition.id}`);
    const press = (user: typeof world.member, message = offers[0]!.id, customId = button.custom_id) =>
      world.discord.clickButton({ message, customId, user }).reply(WAIT).then(renderMessageText);
    expect(await press(world.member)).toContain('Only members with the Manage Server permission');
    // A forged id naming a competition the offer did not name changes nothing.
    const forgedId = `live:pick:${event.id}:${(await row()).raceId}:${competition.id + 7}`;
    expect(await press(world.admin, await postForgedButton(world, forgedId), forgedId)).toContain(
      'Det erbjudandet gäller inte längre',
    );
    expect(await row()).toMatchObject({ competitionId: null, how: 'uncertain' });
    expect(await press(world.admin)).toContain(`följer tävling ${competition.id} på Liveresultat`);
    expect(await row()).toMatchObject({ competitionId: competition.id, how: 'admin' });
  });

  it('/live link: refusals change nothing; a LiveResultat address gives only its id, asked of the operator', async () => {
    const before = await row();
    const event = `${before.eventId}:${before.raceId}`;
    const link = (competition: string, user = world.admin) =>
      command('live', 'link', { event, competition }, user).then(renderMessageText);

    expect(await link(`https://evil.example/followfull.php?comp=${competition.id}`)).toContain(
      'That is not a LiveResultat address',
    );
    expect(await link('drop table; --')).toContain('That is neither a competition id nor an address');
    const otherDay = world.live!.world.competitions.find((c) => c.date !== competition.date)!;
    expect(await link(String(otherDay.id))).toContain(`is on ${otherDay.date}, not on the race's day`);
    expect(await link('99999999')).toContain('LiveResultat has no competition 99999999');
    // Only those who manage the server: the member is refused by the router.
    expect(await link(String(competition.id), world.member)).toContain(
      'Only members with the Manage Server permission',
    );
    expect(await row()).toMatchObject({ competitionId: before.competitionId, how: before.how });

    const requests = world.live!.requests.length;
    const answer = await command('live', 'link', {
      event,
      competition: `https://liveresultat.orientering.se/followfull.php?comp=${competition.id}&lang=sv#x`,
    });
    const done = renderMessageText(answer);
    expect(done).toContain(`now follows LiveResultat competition ${competition.id}`);
    // The competition's hostile name, as text: the mention broken in what the bot sends (a member
    // sees "@everyone" drawn, but nobody is pinged), and no mention allowed anyway.
    expect(answer.content).not.toContain('@everyone');
    expect(answer.content).toContain('@\u200beveryone');
    // Asked of the sandbox (the operator's address), not of the address typed.
    expect(world.live!.requests.length).toBeGreaterThan(requests);
    expect(await row()).toMatchObject({ competitionId: competition.id, how: 'admin' });
    // A later matching run keeps the admin's choice.
    clock += 5 * MINUTE;
    await world.bot.scheduler.tick(now(), { force: true });
    expect(await row()).toMatchObject({ competitionId: competition.id, how: 'admin' });
  });

  it('members want the finish DM about their own persons', async () => {
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, plain.personId!, 'credentials');
    // The Swedish member's person runs under a hostile name: LiveResultat's row is not theirs any more.
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, hostile.personId!, 'credentials');
    for (const user of [world.member, world.swedishMember])
      expect(renderMessageText(await command('notify', 'on', { what: 'live' }, user))).toContain(
        'Live finish on race day: on',
      );
  });

  it('when LiveResultat fails: asked less often, the board says so, the admins told once, then it picks up', async () => {
    // Into the race: the club's runners out, the board up.
    clock = span.firstStart + 20 * MINUTE;
    for (let i = 0; i < 8; i++) {
      clock += 15 * SECOND;
      await world.bot.live!.turn(now());
    }
    expect(boards()).toHaveLength(1);
    expect(notices()).toHaveLength(0);

    const fault = world.live!.faults.add({ kind: 'status', status: 503 });
    let polls = 0;
    for (let i = 0; i < 20; i++) {
      clock += 15 * SECOND;
      polls += (await world.bot.live!.turn(now())).polled.length;
    }
    // Five minutes at the hot tier would be 20 polls; backing off (30 s, 60 s, 120 s …) it is a few.
    expect(polls).toBeLessThanOrEqual(5);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(notices()).toHaveLength(1);
    expect(renderMessageText(boards()[0]!)).toContain('Liveresultat svarar inte');

    world.live!.faults.remove(fault);
    for (let i = 0; i < 50 && renderMessageText(boards()[0]!).includes('Liveresultat svarar inte'); i++) {
      clock += 30 * SECOND;
      await world.bot.live!.turn(now());
    }
    expect(renderMessageText(boards()[0]!)).not.toContain('Liveresultat svarar inte');

    // An endless body, text that is not JSON, an answer about another competition: failures like any
    // other, told no more.
    for (const rule of [
      { kind: 'huge' as const, bytes: 48 * 1024 * 1024 },
      { kind: 'maintenance' as const },
      { kind: 'otherCompetition' as const, competitionId: competition.id + 1 },
    ]) {
      const id = world.live!.faults.add(rule);
      const countsBefore = /Ute: \d+ · I mål: \d+/.exec(renderMessageText(boards()[0]!))?.[0];
      for (let i = 0; i < 4; i++) {
        clock += 15 * SECOND;
        await world.bot.live!.turn(now());
      }
      // The last good state stays on the board; nothing of the other competition shows.
      expect(renderMessageText(boards()[0]!)).toContain(countsBefore);
      world.live!.faults.remove(id);
      for (let i = 0; i < 50 && renderMessageText(boards()[0]!).includes('Liveresultat svarar inte'); i++) {
        clock += 30 * SECOND;
        await world.bot.live!.turn(now());
      }
    }
    expect(notices()).toHaveLength(1);
    expect(boards()).toHaveLength(1);
  });

  it('hostile names reach the board and the finish messages as text; DMs only about the own person', async () => {
    const end = span.lastFinalAt + 2 * MINUTE;
    for (let step = 0; clock < end && step < 500; step++) {
      clock += MINUTE;
      await world.bot.live!.turn(now());
    }
    expect(clock).toBeGreaterThanOrEqual(end);
    const messages = world.discord.messages(board.id);
    expect(boards()).toHaveLength(1);
    expect(messages.length).toBeGreaterThan(3);
    for (const message of messages) expectHarmless(message);
    for (const edit of boards()[0]!.edits) expectHarmless({ ...boards()[0]!, ...edit } as MessageView);
    // The hostile runner's finish is there, as text.
    expect(messages.some((m) => m.content.includes('\\*\\*Astrid'))).toBe(true);

    expect(liveDms(world.member)).toHaveLength(1);
    expectHarmless(liveDms(world.member)[0]!);
    // The row under the hostile name is nobody's: no DM to the member linked to that person.
    expect(liveDms(world.swedishMember)).toHaveLength(0);
  });

  it('turns final once every runner is home and nothing changed for half an hour, then asks no more', async () => {
    const requestsAt = () => world.live!.requests.length;
    for (let step = 0; step < 60 && !renderMessageText(boards()[0]!).includes('Slutligt'); step++) {
      clock += MINUTE;
      await world.bot.live!.turn(now());
    }
    expect(boards()[0]!.embeds[0]!.title).toMatch(/^Slutligt: /);
    const final = await row();
    expect(final.finalAt).not.toBeNull();
    // No results post to link: the results kind is off here.
    expect(final.resultsUrl).toBeNull();
    const requests = requestsAt();
    const edits = boards()[0]!.edits.length;
    for (let i = 0; i < 30; i++) {
      clock += MINUTE;
      await world.bot.live!.turn(now());
    }
    expect(requestsAt()).toBe(requests);
    expect(boards()[0]!.edits).toHaveLength(edits);
    expect(boards()).toHaveLength(1);
  });
});
