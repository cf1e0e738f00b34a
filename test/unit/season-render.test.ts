/**
 * The season's answers and pictures (src/render/season.ts, src/charts/season-graph.ts) on the worked
 * example and on hostile names: the figures in words, the picture's words and alt text, namesakes
 * told apart, and every name from Eventor escaped in text and plain in the pictures, within
 * Discord's limits.
 */
import { describe, expect, it } from 'vitest';
import {
  renderClubYear,
  renderSeasonYear,
  SEASON_HEIGHT,
  SEASON_WIDTH,
  seasonChartWords,
} from '../../src/charts/index.js';
import {
  clubSeasonPicture,
  memberSeasonPicture,
  renderClubSeason,
  renderCupStandings,
  renderMemberSeason,
} from '../../src/render/index.js';
import { cupStandings } from '../../src/season/cup.js';
import { seasonRaces } from '../../src/season/races.js';
import { clubSeason, memberSeason, shareBeaten } from '../../src/season/summary.js';
import { decodePng } from '../support/png.js';
import {
  CLUB,
  classResult,
  cupRules,
  event,
  person,
  renderContext,
  resultList,
  workedExample,
} from '../support/season-lists.js';

const ctx = renderContext();
const keep = { keep: (p: { organisation: { id: string | null } | null }) => p.organisation?.id === CLUB.id };
const dated = (lists = workedExample()) =>
  lists
    .flatMap((l) => seasonRaces(l, { ...keep, complete: true }))
    .map((race) => ({ race, day: race.date!.slice(0, 10) }));
const HOSTILE = '**Evil** @everyone <@123> [click](https://evil.example) \u202Egnp';
const rules = cupRules();

describe("a member's year in words", () => {
  it('counts races, valid results, wins, podiums, and the share of the class beaten per race', () => {
    const karl = memberSeason(dated(), 'karl-holm');
    expect(karl.races).toHaveLength(2);
    expect(karl).toMatchObject({ ok: 2, wins: 1, podiums: 1, timeOnCourse: 4800, timed: 2, measured: 0 });
    // Fourth of five, then first of three.
    expect(karl.races.map((r) => r.beaten)).toEqual([0.25, 1]);
    expect(karl.best.map((r) => r.runner.position)).toEqual([1, 4]);
    const per = memberSeason(dated(), 'per-ås');
    expect(per.races.map((r) => r.beaten)).toEqual([null, 0.5]);
    expect(shareBeaten(1, 1)).toBe(1);
    expect(shareBeaten(3, null)).toBeNull();
  });

  it('renders the figures, the best placings, the words under the picture, and the picture with its alt text', async () => {
    const season = memberSeason(dated(), 'karl-holm');
    const answer = { name: 'Karl Holm', year: 2026, season, unavailable: 0 };
    const request = memberSeasonPicture(answer, 'en')!;
    expect(request).toMatchObject({ kind: 'season', title: 'Karl Holm · 2026', year: 2026 });
    const picture = await renderSeasonYear({ ...request, words: seasonChartWords('en') });
    const image = await decodePng(picture.png);
    expect([image.width, image.height]).toEqual([SEASON_WIDTH, SEASON_HEIGHT]);
    expect(image.ink).toBeGreaterThan(1000);
    expect(picture.alt).toBe(
      'Karl Holm · 2026: the share of the class beaten in each of 2 races, over the year: 11 Apr, Vårsprinten: 25 %; 16 May, Skogsträffen: 100 %.',
    );
    const payload = renderMemberSeason(answer, picture, ctx);
    const embed = payload.embeds![0]!;
    expect(embed.title).toBe('Season 2026 · Karl Holm');
    expect(embed.description).toContain('**2 races** · 2 valid results · 1 win · 1 podium');
    expect(embed.description).toContain('Time on course: 1:20:00 (2 races)');
    expect(embed.description).toContain('🥇 Place 1 of 3 · H21 · Skogsträffen');
    expect(embed.description).toContain('Best: Skogsträffen, 100 % of the class beaten.');
    expect(embed.description).toContain('Half of your races at 100 % or better.');
    expect(embed.image?.url).toBe('attachment://season.png');
    expect(payload.pictures?.[0]).toMatchObject({ name: 'season.png', description: picture.alt });
  });
});

describe('hostile names from Eventor', () => {
  const hostileLists = () => [
    resultList(event('601', `${HOSTILE} Cup`, '2026-06-01T08:00:00Z'), [
      classResult(`<#1> ${HOSTILE}`, [
        person({ given: HOSTILE, family: 'X', id: '1', time: 100, position: 1 }),
        person({ given: 'Anna', family: 'Berg', id: '2', time: 120, position: 2 }),
      ]),
    ]),
  ];
  const forbidden = [/@everyone/, /<@123>/, /<#1>/, /(?<!\\)\]\(https/, /\u202E/];
  const plainForbidden = [/@everyone/, /<@123>/, /<#1>/, /\u202E/];

  it('reach no title, text or alt text as typed: escaped in markdown, plain in the pictures', async () => {
    const races = dated(hostileLists());
    const member = { name: `${HOSTILE} X`, year: 2026, season: memberSeason(races, '1'), unavailable: 0 };
    const request = memberSeasonPicture(member, 'en')!;
    for (const text of [request.title, ...request.races.map((r) => r.label)])
      for (const pattern of plainForbidden) expect(text).not.toMatch(pattern);
    const drawn = await renderSeasonYear({ ...request, words: seasonChartWords('en') });
    const club = { club: HOSTILE, year: 2026, season: clubSeason(races), unavailable: 0 };
    const clubDrawn = await renderClubYear({ ...clubSeasonPicture(club, 'en')!, words: seasonChartWords('en') });
    const cup = cupStandings({ ...rules }, races, () => true);
    const payloads = [
      renderMemberSeason(member, drawn, ctx),
      renderClubSeason(club, clubDrawn, ctx),
      renderCupStandings({ name: HOSTILE, rules: { ...rules, classes: [HOSTILE] } }, cup, ctx),
    ];
    for (const payload of payloads) {
      const embed = payload.embeds![0]!;
      for (const text of [embed.title!, embed.description!])
        for (const pattern of forbidden) expect(text, text).not.toMatch(pattern);
      expect(embed.title!.length).toBeLessThanOrEqual(256);
      expect(embed.description).toContain('\\*\\*Evil\\*\\*');
      for (const file of payload.pictures ?? [])
        for (const pattern of plainForbidden) expect(file.description).not.toMatch(pattern);
    }
  });
});

describe('the club table and a cup: namesakes told apart, ranks shared', () => {
  const namesakes = () => [
    resultList(event('701', 'Ett', '2026-05-01T08:00:00Z'), [
      classResult('H21', [
        { ...person({ given: 'Elin', family: 'Hedlund', id: '1', time: 100, position: 1 }) },
        { ...person({ given: 'Elin', family: 'Hedlund', id: '2', time: 110, position: 2 }) },
      ]),
    ]),
  ];
  const born = (lists: ReturnType<typeof namesakes>) => {
    lists[0]!.classes[0]!.persons[0]!.person!.birthDate = '1990-01-01';
    lists[0]!.classes[0]!.persons[1]!.person!.birthDate = '2005-01-01';
    return lists;
  };

  it('two runners of one name each get their birth year', () => {
    const races = dated(born(namesakes()));
    const cup = renderCupStandings(
      { name: 'C', rules },
      cupStandings(rules, races, () => true),
      ctx,
    );
    expect(cup.embeds![0]!.description).toContain('1. **Elin Hedlund (1990)**: 25 (1 race)');
    expect(cup.embeds![0]!.description).toContain('2. **Elin Hedlund (2005)**: 20 (1 race)');
    const table = renderClubSeason({ club: 'OK', year: 2026, season: clubSeason(races), unavailable: 0 }, null, ctx);
    expect(table.embeds![0]!.description).toContain('1. **Elin Hedlund (1990)**: 1 start, 1 win, 1 podium');
    expect(table.embeds![0]!.description).toContain('1. **Elin Hedlund (2005)**: 1 start, 0 wins, 1 podium');
    expect(table.pictures).toBeUndefined();
  });
});
