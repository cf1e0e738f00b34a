/**
 * What the club's season costs Eventor, and how fast `/season` answers once its races are kept
 * (docs/season.md#what-it-asks-eventor), in the loopback world: the real bot, the sandbox Eventor
 * over HTTP with a home club of 200 members, on a fixed clock.
 *
 * - The whole season of the club: the club's table, then every member's `/season member`, then a
 *   cup's standings, on a bot that has asked nothing yet. Every Eventor request counts. The
 *   target is one request per race the club ran, plus a small constant (finding the races, the
 *   member list, the key check): members and cups add nothing.
 * - `/season member` answered warm (its races kept): from INTERACTION_CREATE to the answer with
 *   its picture, p95, within the warm answers' target (`answer-warm-p95`).
 */
import { type LoopbackWorld, startLoopbackWorld } from '../loopback/world.js';
import { SANDBOX_TIME_ZONE } from '../sandbox/eventor/dataset.js';
import { localToday } from '../../src/time/days.js';
import { instantToLocal } from '../../src/time/zones.js';
import type { TargetedFigure } from './figure.js';
import { answerTimes } from './interactions.js';
import type { BenchContext, BenchSection } from './section.js';
import { percentile } from './stats.js';

/** The sandbox's reference "now", late in the year so that its season has most of the sandbox's past races. */
const BASE = new Date('2026-11-18T09:00:00Z');
const MEMBERS = 200;
/**
 * Requests a season costs besides one per race: the club's entries and organised events and the
 * events they name (finding the races), the member list (names), the connection's key check.
 */
export const SEASON_REQUESTS_CONSTANT = 5;
/** The warm answers' target of the interactions section (`answer-warm-p95`). */
export const SEASON_WARM_ANSWER_MS = 250;
const WARM_ROUNDS = 30;
const WAIT = { timeoutMs: 60_000 };

/** The club's races of the year in the sandbox's data: each race of an event with a start of the club's. */
function racesRun(world: LoopbackWorld, year: number): { races: number; events: number } {
  const dataset = world.eventor.dataset;
  const home = dataset.homeClub.id;
  const races = new Set<string>();
  const events = new Set<string>();
  for (const event of dataset.events) {
    if (event.shape === 'relay' || event.event.status === 'canceled' || !event.hasResults) continue;
    for (const cls of dataset.details(event).resultList?.classes ?? [])
      for (const p of cls.persons) {
        if (p.organisation?.id !== home) continue;
        for (const r of p.results) {
          const race = event.event.races.find((x) => x.id === r.raceId) ?? event.event.races[0];
          if (!race?.date || instantToLocal(race.date, SANDBOX_TIME_ZONE).date.slice(0, 4) !== String(year)) continue;
          if (r.status === 'DidNotStart' || r.status === 'Inactive') continue;
          races.add(`${event.id}:${race.id}`);
          events.add(event.id);
        }
      }
  }
  return { races: races.size, events: events.size };
}

interface SeasonRun {
  requests: number;
  byPath: Array<[string, number]>;
  races: number;
  events: number;
  members: number;
  warm: number[];
}

async function measureSeason(members: number, rounds: number): Promise<SeasonRun> {
  const clock = BASE;
  const world = await startLoopbackWorld({
    now: () => clock,
    eventorFollowsClock: true,
    eventorHomeClubMembers: MEMBERS,
  });
  try {
    const year = Number(localToday(BASE, SANDBOX_TIME_ZONE).slice(0, 4));
    const run = (subcommand: string, options: Record<string, string | number | boolean>) =>
      world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.member,
        locale: 'sv-SE',
        name: 'season',
        subcommand,
        options,
      });
    const persons = world.eventor.dataset.homeClub.members.map((m) => m.person.id!).slice(0, members);
    world.eventor.requests.clear();
    await run('club', { year }).answer(WAIT);
    for (const personId of persons) await run('member', { member: personId, year }).answer(WAIT);
    const cup = await world.bot.services.cups.create(
      world.guild.id,
      world.admin.id,
      { name: 'Säsongscupen', scoring: 'winner-ratio', best: 5, from: `${year}-01-01` },
      SANDBOX_TIME_ZONE,
    );
    await run('cup', { cup: String(cup.id) }).answer(WAIT);
    const requests = world.eventor.requests.count();
    const byPath = [...world.eventor.requests.byPath()].sort((a, b) => b[1] - a[1]);
    const warm: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const handle = run('member', { member: persons[i % persons.length]!, year });
      await handle.answer(WAIT);
      const times = answerTimes(handle);
      if (times === null || times.late) throw new Error('a warm /season member was not answered in time');
      warm.push(times.answerMs);
    }
    if (world.eventor.requests.count() !== requests) throw new Error('a warm /season asked Eventor');
    return { requests, byPath, ...racesRun(world, year), members: persons.length, warm };
  } finally {
    await world.close();
  }
}

export async function seasonFigures(context: BenchContext): Promise<TargetedFigure[]> {
  const members = context.quick ? 40 : MEMBERS;
  const rounds = context.quick ? 10 : WARM_ROUNDS;
  if (context.quick)
    context.write(`# quick: ${members} of the ${MEMBERS} members ask their season, ${rounds} warm rounds`);
  const season = await measureSeason(members, rounds);
  context.write(
    `# the club's season (${MEMBERS} members, ${season.races} races in ${season.events} events): ${season.requests} Eventor requests for its table, ${season.members} members' seasons and a cup (${season.byPath.map(([p, n]) => `${p.replace(/\d+/g, 'N')} ${n}`).join(', ')})`,
  );
  return [
    {
      name: 'eventor-requests-season-whole-club',
      value: season.requests,
      unit: 'req',
      op: '<=',
      target: season.races + SEASON_REQUESTS_CONSTANT,
      title: "Eventor requests of a club's whole season, 200 members",
      about: `Every Eventor request of a bot that has asked nothing yet, for the club's table of the year, every member's \`/season member\` (${MEMBERS} members; ${season.members} in this run) and a cup's standings, in the sandbox with a home club of ${MEMBERS} members on a fixed clock. The target is one request per race the club ran that year plus ${SEASON_REQUESTS_CONSTANT} (finding the races, the member list, the key check): what members and cups add is nothing.`,
    },
    {
      name: 'season-answer-warm-p95',
      value: percentile(season.warm, 95),
      unit: 'ms',
      op: '<=',
      target: SEASON_WARM_ANSWER_MS,
      title: '`/season member` answered warm, picture included, p95',
      about: `From INTERACTION_CREATE to the answer of \`/season member\` with its picture, the season's races already kept, one member after another (${rounds} rounds), p95; the target is the warm answers' (\`answer-warm-p95\`).`,
    },
  ];
}

export const seasonSection: BenchSection = { name: 'season', run: seasonFigures };
