/**
 * Matching against the sandboxes (src/live/match.ts, clubs.ts, eventor.ts): each race of the
 * sandbox Eventor finds its own competition among the day's on the sandbox LiveResultat (a stage of
 * a multi-day event its stage, never the other organiser's training that day), and the club's
 * runners read live are the club's start list, each confirmed or shown as ambiguous.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clubAliases, crossCheck } from '../../src/live/clubs.js';
import { LiveClient } from '../../src/live/index.js';
import { clubEntriesInEntries, clubEntriesInStartList, raceToMatch } from '../../src/live/eventor.js';
import { matchCompetition } from '../../src/live/match.js';
import { CompetitionTracker } from '../../src/live/tracker.js';
import { clubRace, clubRelay, type LiveTestWorld, raceSpan, startLiveTestWorld } from '../support/live-world.js';

let world: LiveTestWorld;
beforeAll(async () => {
  world = await startLiveTestWorld();
});
afterAll(async () => {
  await world?.close();
});

describe('the live competition of each race', () => {
  it('is found, confident, for every race with a live competition, stages included', async () => {
    const client = new LiveClient({ rest: world.sources.rest, legacy: null });
    const byDay = new Map<string, Awaited<ReturnType<LiveClient['competitionsOn']>>>();
    let stages = 0;
    const competitions = world.live.world.competitions.filter((c) => c.eventId !== null);
    expect(competitions.length).toBeGreaterThan(20);
    for (const competition of competitions) {
      const ev = world.dataset.event(competition.eventId!)!;
      const race = raceToMatch(ev.event, ev.event.races[competition.raceIndex]!.id, {
        timeZone: 'Europe/Stockholm',
        documents: ev.documents,
      })!;
      expect(race.date).toBe(competition.date);
      let day = byDay.get(race.date);
      if (day === undefined) byDay.set(race.date, (day = await client.competitionsOn(race.date)));
      const match = matchCompetition(race, day);
      expect(match, `${ev.name} (${race.date})`).toMatchObject({
        kind: 'confident',
        competition: { id: competition.id },
      });
      if (competition.multiDayStage !== null) stages++;
    }
    expect(stages).toBeGreaterThan(1);
  });

  it('a link in the event decides, even against a better-scored name', async () => {
    const { competition } = clubRace(world);
    const ev = world.dataset.event(competition.eventId!)!;
    const decoy = world.live.world.competitions.find((c) => c.date === competition.date && c.eventId === null)!;
    const linked = {
      ...ev.event,
      message: `Liveresultat: https://liveresultat.orientering.se/followfull.php?comp=${decoy.id}&lang=sv`,
    };
    const race = raceToMatch(linked, ev.event.races[0]!.id, { timeZone: 'Europe/Stockholm' })!;
    expect(race.linkedIds).toEqual([decoy.id]);
    const day = await new LiveClient({ rest: world.sources.rest, legacy: null }).competitionsOn(competition.date);
    expect(matchCompetition(race, day)).toMatchObject({ kind: 'confident', by: 'link', competition: { id: decoy.id } });
  });
});

describe("the club's runners against its start list", () => {
  it('every runner read live is in the start list, confirmed, or ambiguous between namesakes', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const ev = world.dataset.event(competition.eventId!)!;
    const home = world.dataset.homeClub.organisation;
    const state = await new CompetitionTracker(
      new LiveClient({ ...world.sources }),
      competition.id,
      clubAliases(home),
    ).refresh();
    const startList = world.dataset.details(ev).startList!;
    const entries = clubEntriesInStartList(startList, new Set([home.id]));
    expect(entries.length).toBe(state.runners.length);
    const checked = crossCheck(state.runners, entries);
    const kinds = checked.map(({ check }) => check.kind);
    expect(kinds.every((kind) => kind === 'confirmed' || kind === 'ambiguous')).toBe(true);
    expect(kinds.filter((kind) => kind === 'confirmed').length).toBeGreaterThan(entries.length / 2);
    // A class with `/` holds the class it was in Eventor.
    expect(checked.some(({ runner, check }) => runner.className.includes('/') && check.kind === 'confirmed')).toBe(
      true,
    );
    // Before the draw the entries say the same names (without start times).
    const classNames = new Map(world.dataset.details(ev).classes.map((c) => [c.id, c.name]));
    const fromEntries = clubEntriesInEntries(world.dataset.details(ev).entries, new Set([home.id]), classNames);
    expect(fromEntries.map((e) => e.name).sort()).toEqual(entries.map((e) => e.name).sort());
  });

  it('relay legs against the teams of the start list, leg by leg', async () => {
    const { competition, race } = clubRelay(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const ev = world.dataset.event(competition.eventId!)!;
    const home = world.dataset.homeClub.organisation;
    const state = await new CompetitionTracker(
      new LiveClient({ ...world.sources }),
      competition.id,
      clubAliases(home),
    ).refresh();
    const entries = clubEntriesInStartList(world.dataset.details(ev).startList!, new Set([home.id]));
    expect(entries.every((e) => e.leg !== null)).toBe(true);
    const checked = crossCheck(state.runners, entries);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.every(({ check }) => check.kind === 'confirmed' || check.kind === 'ambiguous')).toBe(true);
  });
});
