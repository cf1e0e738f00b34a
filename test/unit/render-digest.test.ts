/**
 * The weekly digest's rendering (pure) and the pure parts of its kind: when a week's digest falls
 * due, and last week's results counted from the club's result lists.
 */
import { describe, expect, it } from 'vitest';
import { digestResults, latestDigestDue } from '../../src/feeds/kinds/digest/digest.js';
import {
  type DigestData,
  type DigestEvent,
  type DigestPodium,
  type DigestStart,
  renderDigest,
} from '../../src/render/digest.js';
import { embedLength } from '../../src/render/index.js';
import {
  activity,
  CLUB,
  classResult,
  ctx,
  OTHER,
  personResult,
  raceResult,
  resultList,
  validPayloads,
} from '../support/render-fixtures.js';

const NASTY = 'Ö*s_t~~e||r`s`ö @everyone <@1> [x](y) ';

function digestEvent(i: number): DigestEvent {
  return {
    id: String(2000 + i),
    name: `${NASTY}Tävling nummer ${i} `.repeat(3),
    start: `2026-11-2${4 + (i % 5)}T09:00:00Z`,
  };
}

function emptyWeek(): DigestData {
  return { week: '2026-W48', starts: [], deadlines: [], results: { events: [], podiums: [] }, activities: [] };
}

/** A club of thousands: every part far over what one message holds. */
function hugeWeek(): DigestData {
  const starts: DigestStart[] = Array.from({ length: 6 }, (_, e) => ({
    event: digestEvent(e),
    startList: e % 2 === 0,
    runners: Array.from({ length: 900 }, (_, r) => ({
      name: `${NASTY}Löpare ${e}-${r} Med Ett Mycket Långt Efternamn`,
      className: `H${21 + (r % 40)} Lång ${NASTY}`,
      startTime: e % 2 === 0 ? `2026-11-24T10:${String(r % 60).padStart(2, '0')}:00Z` : null,
    })),
  }));
  return {
    week: '2026-W48',
    starts,
    deadlines: Array.from({ length: 300 }, (_, i) => ({
      event: digestEvent(i),
      deadline: `2026-11-2${3 + (i % 7)}T21:59:59Z`,
      late: i % 3 === 0,
      count: i,
    })),
    results: {
      events: Array.from({ length: 80 }, (_, i) => ({ event: digestEvent(i), ran: 40 + i })),
      podiums: Array.from({ length: 600 }, (_, i) => ({
        name: `${NASTY}Vinnare ${i}`,
        className: `D${10 + (i % 70)}`,
        position: ((i % 3) + 1) as DigestPodium['position'],
        event: digestEvent(i % 80),
      })),
    },
    activities: Array.from({ length: 400 }, (_, i) =>
      activity({ id: String(i), name: `${NASTY}Träning ${i}`, startTime: '2026-11-25T17:30:00Z' }),
    ),
  };
}

function descriptions(data: DigestData, language: 'en' | 'sv' | 'nb' = 'en'): string[] {
  const [payload] = validPayloads(renderDigest(data, ctx(language)));
  return (payload!.embeds ?? []).map((e) => e.description ?? '');
}

describe('renderDigest', () => {
  it('a huge club stays within Discord limits, every part summarised with "and N more", no line cut', () => {
    const data = hugeWeek();
    const [payload] = validPayloads(renderDigest(data, ctx('en')));
    const embeds = payload!.embeds!;
    expect(embeds.reduce((sum, e) => sum + embedLength(e), 0)).toBeLessThanOrEqual(6000);
    expect(embeds.map((e) => e.title)).toEqual([
      'Starts in the coming days',
      'Entry deadlines in the next 10 days',
      "Last week's results",
      "The club's activities this week",
    ]);
    for (const embed of embeds) {
      const lines = embed.description!.split('\n');
      // The last guard (fitPayload) never had to cut: the part ends on its own "and N more" line.
      expect(lines.at(-1)).toMatch(/^…and \d+ more$/);
      expect(embed.description!.endsWith('…')).toBe(false);
    }
    // Runners shown plus "and N more" are every runner: nothing lost, nothing counted twice.
    const starts = embeds[0]!.description!.split('\n');
    const shown = starts.filter((l) => l.startsWith('• ')).length;
    const more = Number(/^…and (\d+) more$/.exec(starts.at(-1)!)![1]);
    expect(shown).toBeGreaterThan(0);
    expect(shown + more).toBe(6 * 900);
    // Each runner line is whole: it ends with its class in brackets.
    for (const line of starts.filter((l) => l.startsWith('• '))) expect(line).toMatch(/\)$/);
    // Mentions in Eventor's names are broken, never live.
    expect(embeds.map((e) => e.description).join('\n')).not.toContain('@everyone');
  });

  it("lists last week's wins first, then seconds and thirds, with how many ran", () => {
    const event = (id: string, start: string): DigestEvent => ({ id, name: `Race ${id}`, start });
    const early = event('1', '2026-11-15T09:00:00Z');
    const late = event('2', '2026-11-16T09:00:00Z');
    const data: DigestData = {
      ...emptyWeek(),
      results: {
        events: [
          { event: late, ran: 5 },
          { event: early, ran: 7 },
        ],
        podiums: [
          { name: 'Cecilia Third', className: 'D21', position: 3, event: early },
          { name: 'Bo Second', className: 'H35', position: 2, event: early },
          { name: 'Ada Late Win', className: 'D45', position: 1, event: late },
          { name: 'Alf Early Win', className: 'H21', position: 1, event: early },
        ],
      },
    };
    const [results] = descriptions(data);
    const lines = results!.split('\n');
    expect(lines[0]).toBe('12 from the club ran. 4 podiums (2 won).');
    expect(
      lines
        .slice(1, 5)
        .map((l) => l.slice(0, l.indexOf(',')))
        .join(' | '),
    ).toBe('🥇 Alf Early Win | 🥇 Ada Late Win | 🥈 Bo Second | 🥉 Cecilia Third');
    expect(lines[5]).toContain('[Race 1]');
    expect(lines[5]).toContain('7 ran');
    expect(lines[6]).toContain('5 ran');
  });

  it('an empty week is one short "quiet week" post, in the server\'s language', () => {
    const [payload] = validPayloads(renderDigest(emptyWeek(), ctx('sv')));
    expect(payload!.content).toContain('Klubbens vecka** (vecka 48)');
    expect(payload!.embeds).toHaveLength(1);
    expect(payload!.embeds![0]!.title).toBe('En lugn vecka');
    expect(payload!.embeds![0]!.footer!.text).toBe('Veckosammanfattning från Eventor');
  });

  it('a late digest says when it was due', () => {
    const [payload] = validPayloads(renderDigest(emptyWeek(), ctx('en'), { lateSince: '2026-11-19T17:00:00.000Z' }));
    expect(payload!.content).toContain('This digest comes late: it was due <t:1795107600:f>.');
    const [onTime] = validPayloads(renderDigest(emptyWeek(), ctx('en')));
    expect(onTime!.content).not.toContain('late');
  });

  it('starts: start-list times in the server zone, entries marked as such, races in order', () => {
    const data: DigestData = {
      ...emptyWeek(),
      starts: [
        {
          event: { id: '9', name: 'Sunday Long', start: '2026-11-29T08:00:00Z' },
          startList: false,
          runners: [{ name: 'Eva Entrant', className: 'D21', startTime: null }],
        },
        {
          event: { id: '8', name: 'Saturday Sprint', start: '2026-11-28T09:00:00Z' },
          startList: true,
          runners: [
            { name: 'Late Starter', className: 'H21', startTime: '2026-11-28T11:05:00Z' },
            { name: 'Early Starter', className: 'H21', startTime: '2026-11-28T09:32:00Z' },
          ],
        },
      ],
    };
    const lines = descriptions(data)[0]!.split('\n');
    expect(lines[0]).toContain('[Saturday Sprint]');
    expect(lines[1]).toBe('• 10:32 Early Starter (H21)');
    expect(lines[2]).toBe('• 12:05 Late Starter (H21)');
    expect(lines[3]).toContain('[Sunday Long]');
    expect(lines[3]).toContain('entries (no start list yet)');
    expect(lines[4]).toBe('• Eva Entrant (D21)');
  });
});

describe('latestDigestDue', () => {
  const thursday1800 = { digestDay: 4, digestTime: '18:00' };
  const zone = 'Europe/Stockholm';

  it("falls due at the chosen local time, in the server's zone, and names the ISO week", () => {
    // Thursday 2026-11-26 18:00 in Stockholm is 17:00 UTC.
    expect(latestDigestDue(new Date('2026-11-26T17:00:00Z'), zone, thursday1800)).toEqual({
      dueAt: new Date('2026-11-26T17:00:00Z'),
      week: '2026-W48',
    });
    // A minute before: still last week's.
    expect(latestDigestDue(new Date('2026-11-26T16:59:00Z'), zone, thursday1800)).toEqual({
      dueAt: new Date('2026-11-19T17:00:00Z'),
      week: '2026-W47',
    });
    // Monday of the next week: still the Thursday before.
    expect(latestDigestDue(new Date('2026-11-30T06:00:00Z'), zone, thursday1800).week).toBe('2026-W48');
  });

  it('follows summer time and the ISO week-year', () => {
    // Sunday 20:30 on 2026-03-29, the day Stockholm's clocks go forward: 18:30 UTC.
    expect(
      latestDigestDue(new Date('2026-03-29T19:00:00Z'), zone, { digestDay: 7, digestTime: '20:30' }).dueAt,
    ).toEqual(new Date('2026-03-29T18:30:00Z'));
    // Thursday 2027-01-01 is in ISO week 53 of 2026.
    expect(latestDigestDue(new Date('2027-01-02T12:00:00Z'), zone, thursday1800).week).toBe('2026-W53');
  });
});

describe('digestResults', () => {
  it('counts who ran (not who did not start) and takes podiums from ranked classes only', () => {
    const list = resultList([
      classResult('H21', [
        personResult('1', 'Alf', 'Winner', CLUB, [raceResult({ position: 1 })]),
        personResult('2', 'Olle', 'Other', OTHER, [raceResult({ position: 2 })]),
        personResult('3', 'Bo', 'Third', CLUB, [raceResult({ position: 3 })]),
        personResult('4', 'Dan', 'Missed', CLUB, [raceResult({ status: 'MissingPunch' })]),
        personResult('5', 'Nils', 'Absent', CLUB, [raceResult({ status: 'DidNotStart' })]),
      ]),
      classResult('U1', [personResult('6', 'Ung', 'Unranked', CLUB, [raceResult({ position: 1 })])], {
        class: { id: 'U1', name: 'U1', shortName: null, resultListMode: 'UnorderedNoTimes' },
      }),
    ]);
    const results = digestResults([list], CLUB.id!);
    expect(results.events).toEqual([
      { event: { id: '1001', name: 'Höstsprinten', start: '2026-10-10T09:00:00Z' }, ran: 4 },
    ]);
    expect(results.podiums.map((p) => [p.name, p.position])).toEqual([
      ['Alf Winner', 1],
      ['Bo Third', 3],
    ]);
  });
});
