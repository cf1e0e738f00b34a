/**
 * What a live source sends is not trusted (docs/live-results.md#what-is-not-trusted): hostile names
 * (mentions, markdown, 5,000 characters) go from the sandbox LiveResultat through the real client
 * into the board and a finish message as plain text within Discord's limits; an endless body, text
 * that is not JSON, and an answer about another competition are refused and leave the last good
 * state; a runner who could be either of two members is nobody's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient, LiveError, secondsIntoDay } from '../../src/live/index.js';
import { clubAliases, type ClubEntry, crossCheck, runnerOfPerson } from '../../src/live/clubs.js';
import { CompetitionTracker } from '../../src/live/tracker.js';
import { renderFinishMessage, renderLiveBoard } from '../../src/render/live.js';
import { ctx, textOf, validPayloads } from '../support/render-fixtures.js';
import { clubRace, type LiveTestWorld, raceSpan, startLiveTestWorld } from '../support/live-world.js';

const HOSTILE = `@everyone <@&1> **Astrid** [klick](https://evil.example) \`\`\`\n# Rubrik\u202E ${'x'.repeat(5000)}`;

let world: LiveTestWorld;
beforeAll(async () => {
  world = await startLiveTestWorld();
});
afterAll(async () => {
  await world?.close();
});

describe('a hostile live source', () => {
  it('hostile runner, class and competition names reach the board and the finish message as text', async () => {
    const { competition, race } = clubRace(world);
    const runner = race.classes
      .flatMap((c) => c.runners)
      .find((r) => r.club === world.homeClub && r.final?.status === 0)!;
    const originalName = runner.name;
    const cls = race.classes.find((c) => c.runners.includes(runner))!;
    const originalClass = cls.name;
    const originalCompetition = competition.name;
    runner.name = HOSTILE;
    cls.name = `${HOSTILE} D21`;
    competition.name = HOSTILE;
    try {
      world.setNow(raceSpan(race).lastFinalAt + 60_000);
      for (const client of [
        new LiveClient({ rest: world.sources.rest, legacy: null }),
        new LiveClient({ rest: null, legacy: world.sources.legacy }),
      ]) {
        const state = await new CompetitionTracker(
          client,
          competition.id,
          clubAliases({ name: world.homeClub }),
        ).refresh();
        expect(state.errors).toEqual([]);
        const hostile = state.runners.find((r) => r.name.startsWith('@everyone'))!;
        // Read as one line, cut: the client keeps no 5,000-character name.
        expect(hostile.name.length).toBeLessThanOrEqual(200);
        expect(hostile.name).not.toContain('\n');
        const board = renderLiveBoard(
          {
            competition: state.competition,
            runners: state.runners,
            secondsIntoDay: secondsIntoDay(state.competition, new Date(world.now())),
            final: false,
            readAt: new Date(world.now()),
          },
          ctx('en'),
        );
        const finish = renderFinishMessage(hostile, ctx('en'), { fullName: true })!;
        for (const payload of validPayloads([board, finish])) {
          const text = textOf(payload);
          expect(text).not.toContain('@everyone');
          expect(text).not.toMatch(/<@&\d/);
          expect(text).not.toMatch(/(?<!\\)\*\*Astrid(?<!\\)\*\*/);
          expect(text).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
          expect(text).not.toContain('\u202E');
          expect(text).not.toMatch(/^# Rubrik/m);
        }
      }
    } finally {
      runner.name = originalName;
      cls.name = originalClass;
      competition.name = originalCompetition;
    }
  });

  it('an endless body, a page that is not JSON, another competition: refused, the last good state kept', async () => {
    const { competition, race } = clubRace(world);
    world.setNow(raceSpan(race).lastFinalAt + 60_000);
    const tracker = new CompetitionTracker(
      new LiveClient({ rest: world.sources.rest, legacy: null }),
      competition.id,
      clubAliases({ name: world.homeClub }),
    );
    const good = await tracker.refresh();
    const cls = good.runners[0]!.className;
    const path = `/competitions/${competition.id}/classresults`;
    const faults = [
      { kind: 'huge' as const, bytes: 48 * 1024 * 1024, code: 'TooLarge' },
      { kind: 'maintenance' as const, code: 'InvalidResponse' },
      { kind: 'truncate' as const, code: 'InvalidResponse' },
    ];
    for (const fault of faults) {
      // The class changes, so it is read again, into the fault.
      const rule = world.live.faults.add({ path, kind: fault.kind, ...(fault.bytes ? { bytes: fault.bytes } : {}) });
      world.setNow(world.now() + 60_000);
      const runnerOfClass = race.classes.find((c) => c.name === cls)!.runners[0]!;
      runnerOfClass.correction = { wrongResult: 1, at: world.now() - 1000 };
      try {
        const state = await tracker.refresh();
        expect(state.errors.map((e) => e.code)).toContain(fault.code);
        expect(state.runners.filter((r) => r.className === cls)).toEqual(
          good.runners.filter((r) => r.className === cls),
        );
      } finally {
        runnerOfClass.correction = null;
        world.live.faults.remove(rule);
      }
    }
    const other = world.live.faults.add({
      path: `/competitions/${competition.id}`,
      kind: 'otherCompetition',
      competitionId: competition.id + 1,
    });
    try {
      const fresh = new CompetitionTracker(
        new LiveClient({ rest: world.sources.rest, legacy: null }),
        competition.id,
        clubAliases({ name: world.homeClub }),
      );
      const error = await fresh.refresh().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LiveError);
      expect((error as LiveError).code).toBe('WrongCompetition');
    } finally {
      world.live.faults.remove(other);
    }
  });

  it('a runner who fits two members is nobody: no message about a namesake', () => {
    const entries: ClubEntry[] = [
      { personId: '1', name: 'Anna Berg', className: 'D21' },
      { personId: '2', name: 'Anna Berg', className: 'D21' },
    ];
    const runner = {
      name: 'Anna Berg',
      club: world.homeClub,
      className: 'D20/21',
      status: 'finished' as const,
      start: 36000,
      time: 2000,
      place: 1,
      behind: 0,
      radios: [],
      changedAt: null,
    };
    const checked = crossCheck([runner], entries);
    expect(checked[0]!.check.kind).toBe('ambiguous');
    expect(runnerOfPerson(checked, '1')).toEqual({ problem: 'ambiguous' });
    expect(runnerOfPerson(checked, '2')).toEqual({ problem: 'ambiguous' });
  });
});
