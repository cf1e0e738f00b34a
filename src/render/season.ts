/**
 * The season's answers (docs/members.md#season-your-year-and-the-clubs-table, docs/admins.md#cups):
 * a member's year with its picture and the words under it, the club's table with its picture, a
 * cup's standings (what `/season cup`, `/cup show` and the standings post show) and the cups of a
 * server. Pure: the season's figures in (src/season/), payloads out; the caller draws the pictures
 * from the requests made here and hands them back. Every name from Eventor is escaped in text and
 * plain in the pictures and their alt text.
 */
import type { SeasonPictureRequest } from '../charts/draw.js';
import type { ChartLanguage } from '../charts/words.js';
import { type Language, t } from '../i18n/index.js';
import type { CupResult, CupRules } from '../season/cup.js';
import type { SeasonRace } from '../season/races.js';
import type { ClubSeason, MemberRace, MemberSeason } from '../season/summary.js';
import { leaders } from '../season/summary.js';
import { DISCIPLINE_KEYS } from './events.js';
import { fitPayload } from './fit.js';
import {
  classificationText,
  discordTimestamp,
  escapeName,
  formatElapsed,
  formatPlace,
  plainText,
  truncate,
} from './format.js';
import { COLOURS } from './pages.js';
import type { DrawnPicture } from './splits-answer.js';
import type { MessagePayload, PayloadFile, RenderContext } from './types.js';

export const SEASON_FILE = 'season.png';
export const CLUB_SEASON_FILE = 'club-season.png';
/** Runners and classes listed in the club's table; the rest are counted. */
const CLUB_LINES = 10;
/** Runners listed in a cup's standings; the rest are counted. */
const STANDINGS_LINES = 30;
/** How long a name from Eventor may be in these answers' lines. */
const NAME = 60;

const LOCALES: Record<Language, string> = { en: 'en-GB', sv: 'sv-SE', nb: 'nb-NO' };

/** A race as a line names it: the event, with the race's name or number in a multi-race event. */
function raceName(race: SeasonRace): string {
  if (race.raceCount <= 1) return race.eventName;
  return `${race.eventName} (${race.raceName ?? race.raceNumber})`;
}

function when(race: SeasonRace): string {
  return race.date === null ? '–' : discordTimestamp(race.date, 'D');
}

/**
 * Names for a list, escaped: two runners of one name are two people (their person ids differ), so
 * each gets their birth year, as the results show it (namesakes.ts does the same for result lists).
 */
function listedNames(runners: ReadonlyArray<{ name: string; birthYear: string | null }>): string[] {
  const counts = new Map<string, number>();
  for (const r of runners) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
  return runners.map((r) => {
    const name = escapeName(r.name, { max: NAME });
    return (counts.get(r.name) ?? 0) > 1 && r.birthYear !== null ? `${name} (${escapeName(r.birthYear)})` : name;
  });
}

/** The share of the class beaten in whole percent. */
const percent = (share: number): number => Math.round(share * 100);

function disciplineText(id: string, language: Language): string {
  const key = DISCIPLINE_KEYS[id];
  return key ? t(language, key) : t(language, 'season.discipline.none');
}

// --- a member's year ---

export interface MemberSeasonAnswer {
  /** The member's name as the club's list (or the results) spell it: raw, escaped here. */
  name: string;
  year: number;
  season: MemberSeason;
  /** Events Eventor could not give now. */
  unavailable: number;
}

/** The races drawn: those with a share of the class beaten. */
function drawnRaces(season: MemberSeason): MemberRace[] {
  return season.races.filter((r) => r.beaten !== null && r.day !== null);
}

/** What the member's picture shows, as the drawing thread takes it (names plain text); null when nothing to draw. */
export function memberSeasonPicture(
  answer: MemberSeasonAnswer,
  language: ChartLanguage,
): Extract<SeasonPictureRequest, { kind: 'season' }> | null {
  const races = drawnRaces(answer.season);
  if (races.length === 0) return null;
  return {
    kind: 'season',
    language,
    title: `${plainText(answer.name, NAME) || '?'} · ${answer.year}`,
    year: answer.year,
    races: races.map((r) => ({ day: r.day!, label: plainText(raceName(r.race), NAME) || '?', share: r.beaten! })),
  };
}

function placingLine(race: MemberRace, language: Language): string {
  const position = race.runner.position!;
  const medal = position <= 3 ? `${formatPlace(position, { medals: true })} ` : '';
  const vars = {
    place: position,
    class: escapeName(race.className, { max: 30 }),
    event: escapeName(raceName(race.race), { max: NAME }),
    date: when(race.race),
  };
  return (
    medal +
    (race.classStarts === null
      ? t(language, 'season.placingNoSize', vars)
      : t(language, 'season.placing', { ...vars, starts: race.classStarts }))
  );
}

function pictureWords(season: MemberSeason, language: Language): string[] {
  const drawn = drawnRaces(season);
  const lines = [t(language, 'season.picture.about')];
  if (drawn.length > 0) {
    const best = [...drawn].sort((a, b) => b.beaten! - a.beaten!)[0]!;
    lines.push(
      t(language, 'season.picture.best', {
        event: escapeName(raceName(best.race), { max: NAME }),
        share: percent(best.beaten!),
      }),
    );
    const shares = drawn.map((r) => r.beaten!).sort((a, b) => b - a);
    lines.push(t(language, 'season.picture.median', { share: percent(shares[Math.ceil(shares.length / 2) - 1]!) }));
  }
  const missing = season.races.length - drawn.length;
  if (missing > 0) lines.push(t(language, 'season.picture.missing', { count: missing }));
  return lines;
}

/** `/season member`: the year in figures and words, the picture under them (when drawn). */
export function renderMemberSeason(
  answer: MemberSeasonAnswer,
  picture: DrawnPicture | null,
  ctx: RenderContext,
): MessagePayload {
  const { season, year } = answer;
  const { language } = ctx;
  const title = truncate(
    t(language, 'season.member.title', { year, name: escapeName(answer.name, { max: NAME }) }),
    256,
  );
  const lines: string[] = [];
  if (season.races.length === 0) {
    lines.push(t(language, 'season.member.none', { year }));
  } else {
    lines.push(
      [
        t(language, 'season.races', { count: season.races.length }),
        t(language, 'season.validResults', { count: season.ok }),
        t(language, 'season.wins', { count: season.wins }),
        t(language, 'season.podiums', { count: season.podiums }),
      ].join(' · '),
      t(language, 'season.byDiscipline', {
        list: season.byDiscipline.map((c) => `${disciplineText(c.key, language)} ${c.starts}`).join(', '),
      }),
      t(language, 'season.byLevel', {
        list: season.byLevel.map((c) => `${classificationText(c.key, language)} ${c.starts}`).join(', '),
      }),
    );
    if (season.timed > 0)
      lines.push(t(language, 'season.timeOnCourse', { time: formatElapsed(season.timeOnCourse), count: season.timed }));
    lines.push(
      season.measured > 0
        ? t(language, 'season.distance', {
            km: new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 1 }).format(season.distance / 1000),
            count: season.measured,
          })
        : t(language, 'season.distance.none'),
    );
    if (season.best.length > 0)
      lines.push('', t(language, 'season.best'), ...season.best.map((r) => placingLine(r, language)));
    lines.push('', ...pictureWords(season, language));
  }
  if (answer.unavailable > 0) lines.push('', t(language, 'season.unavailable', { count: answer.unavailable }));
  return withPicture(title, lines, SEASON_FILE, picture, language);
}

/** One embed: the words, the picture under them, the footer that says what counts. */
function withPicture(
  title: string,
  lines: readonly string[],
  file: string,
  picture: DrawnPicture | null,
  language: Language,
): MessagePayload {
  const embed = {
    title,
    color: COLOURS.results,
    description: lines.join('\n'),
    footer: { text: t(language, 'season.footer') },
    ...(picture ? { image: { url: `attachment://${file}` } } : {}),
  };
  const pictures: PayloadFile[] = picture
    ? [{ name: file, data: picture.png, description: plainText(picture.alt, 1024) }]
    : [];
  // fitPayload knows only the text parts; the picture rides beside them untouched.
  return { ...fitPayload({ embeds: [embed] }), ...(pictures.length > 0 ? { pictures } : {}) };
}

// --- the club's table ---

export interface ClubSeasonAnswer {
  /** The club's name (raw). */
  club: string;
  year: number;
  season: ClubSeason;
  unavailable: number;
}

export function clubSeasonPicture(
  answer: ClubSeasonAnswer,
  language: ChartLanguage,
): Extract<SeasonPictureRequest, { kind: 'club-season' }> | null {
  if (answer.season.starts === 0) return null;
  return {
    kind: 'club-season',
    language,
    title: `${plainText(answer.club, NAME) || '?'} · ${answer.year}`,
    months: answer.season.months,
  };
}

/** Competition ranks by a count: equal counts share a rank (1, 1, 3). */
function ranks(counts: readonly number[]): number[] {
  let rank = 0;
  return counts.map((count, i) => {
    if (i === 0 || counts[i - 1] !== count) rank = i + 1;
    return rank;
  });
}

/** `/season club`: the year in figures, the most starts, wins and podiums overall and by class, the picture. */
export function renderClubSeason(
  answer: ClubSeasonAnswer,
  picture: DrawnPicture | null,
  ctx: RenderContext,
): MessagePayload {
  const { season, year } = answer;
  const { language } = ctx;
  const title = truncate(t(language, 'season.club.title', { year, club: escapeName(answer.club, { max: NAME }) }), 256);
  const lines: string[] = [];
  if (season.starts === 0) {
    lines.push(t(language, 'season.club.none', { year }));
  } else {
    const wins = (count: number) => t(language, 'season.wins', { count });
    const podiums = (count: number) => t(language, 'season.podiums', { count });
    const starts = (count: number) => t(language, 'season.club.summary', { count });
    lines.push(
      [
        t(language, 'season.races', { count: season.races }),
        `${starts(season.starts)} ${t(language, 'season.club.runners', { count: season.runners })}`,
        wins(season.wins),
        podiums(season.podiums),
      ].join(' · '),
      '',
      t(language, 'season.club.mostStarts'),
    );
    const top = season.overall.slice(0, CLUB_LINES);
    const rankOf = ranks(season.overall.map((r) => r.starts));
    const topNames = listedNames(top);
    top.forEach((r, i) =>
      lines.push(
        t(language, 'season.club.line', {
          rank: rankOf[i]!,
          name: `**${topNames[i]!}**`,
          starts: starts(r.starts),
          wins: wins(r.wins),
          podiums: podiums(r.podiums),
        }),
      ),
    );
    if (season.overall.length > top.length)
      lines.push(t(language, 'season.club.more', { count: season.overall.length - top.length }));
    const names = (list: ReturnType<typeof leaders>) =>
      list
        .slice(0, 5)
        .map((r) => escapeName(r.name, { max: NAME }))
        .join(', ');
    const mostWins = leaders(season, 'wins');
    const mostPodiums = leaders(season, 'podiums');
    if (mostWins.length > 0 || mostPodiums.length > 0) lines.push('');
    if (mostWins.length > 0)
      lines.push(t(language, 'season.club.mostWins', { names: names(mostWins), count: mostWins[0]!.wins }));
    if (mostPodiums.length > 0)
      lines.push(t(language, 'season.club.mostPodiums', { names: names(mostPodiums), count: mostPodiums[0]!.podiums }));
    lines.push('', t(language, 'season.club.byClass'));
    const classes = season.classes.slice(0, CLUB_LINES);
    for (const c of classes)
      lines.push(
        t(language, 'season.club.classLine', {
          class: `**${escapeName(c.name, { max: 30 })}**`,
          starts: starts(c.starts),
          runners: t(language, 'season.club.runners', { count: c.runners }),
          name: escapeName(c.most.name, { max: NAME }),
          most: c.most.starts,
          wins: wins(c.wins),
          podiums: podiums(c.podiums),
        }),
      );
    if (season.classes.length > classes.length)
      lines.push(t(language, 'season.club.more', { count: season.classes.length - classes.length }));
    lines.push('', t(language, 'season.club.picture.about'));
    const busiest = season.months.reduce((best, m, i) => (m.starts > season.months[best]!.starts ? i : best), 0);
    lines.push(
      t(language, 'season.club.picture.busiest', {
        month: new Intl.DateTimeFormat(LOCALES[language], { month: 'long', timeZone: 'UTC' }).format(
          new Date(Date.UTC(year, busiest, 15)),
        ),
        starts: starts(season.months[busiest]!.starts),
      }),
    );
  }
  if (answer.unavailable > 0) lines.push('', t(language, 'season.unavailable', { count: answer.unavailable }));
  return withPicture(title, lines, CLUB_SEASON_FILE, picture, language);
}

// --- cups ---

export interface CupView {
  name: string;
  rules: CupRules;
  /** Whether the cup standings kind posts its standings (said in `/cup show`'s list). */
  postStandings?: boolean;
}

/** A cup's rules in words, one line each: the scoring, how many races count, the days, the filters. */
export function cupRulesLines(rules: CupRules, language: Language): string[] {
  const lines = [
    t(language, `cup.rules.scoring.${rules.scoring}`),
    rules.best === null ? t(language, 'cup.rules.allRaces') : t(language, 'cup.rules.best', { count: rules.best }),
    t(language, 'cup.rules.days', { from: rules.from, to: rules.to }),
  ];
  if (rules.levels.length > 0)
    lines.push(
      t(language, 'cup.rules.levels', { list: rules.levels.map((l) => classificationText(l, language)).join(', ') }),
    );
  if (rules.disciplines.length > 0)
    lines.push(
      t(language, 'cup.rules.disciplines', {
        list: rules.disciplines.map((d) => disciplineText(d, language)).join(', '),
      }),
    );
  if (rules.eventIds.length > 0) lines.push(t(language, 'cup.rules.events', { list: rules.eventIds.join(', ') }));
  if (rules.classes.length > 0)
    lines.push(
      t(language, 'cup.rules.classes', { list: rules.classes.map((c) => escapeName(c, { max: 30 })).join(', ') }),
    );
  return lines;
}

/** A cup's standings: its rules, then each runner's rank, total and races, the races that count so far. */
export function renderCupStandings(cup: CupView, result: CupResult, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const lines = cupRulesLines(cup.rules, language).map((line) => `· ${line}`);
  lines.push('');
  if (result.standings.length === 0) lines.push(t(language, 'cup.standings.none'));
  const shown = result.standings.slice(0, STANDINGS_LINES);
  const names = listedNames(shown);
  shown.forEach((s, i) =>
    lines.push(
      t(language, 'cup.standings.line', {
        rank: s.rank,
        name: `**${names[i]!}**`,
        points: s.points,
        count: s.races,
      }),
    ),
  );
  if (result.standings.length > shown.length)
    lines.push(t(language, 'cup.standings.more', { count: result.standings.length - shown.length }));
  lines.push('');
  const latest = result.races.at(-1);
  lines.push(
    latest === undefined
      ? t(language, 'cup.standings.noRaces')
      : t(language, 'cup.standings.races', {
          count: result.races.length,
          event: escapeName(raceName(latest), { max: NAME }),
          date: when(latest),
        }),
  );
  return fitPayload({
    embeds: [
      {
        title: truncate(t(language, 'cup.standings.title', { cup: escapeName(cup.name, { max: NAME }) }), 256),
        color: COLOURS.brand,
        description: lines.join('\n'),
        footer: { text: t(language, 'season.footer') },
      },
    ],
  });
}

/** The server's cups, each with its rules. */
export function renderCupList(cups: readonly CupView[], ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const blocks = cups.map((cup) =>
    [
      `**${escapeName(cup.name, { max: NAME })}**`,
      ...[...cupRulesLines(cup.rules, language), ...(cup.postStandings ? [t(language, 'cup.list.posted')] : [])].map(
        (l) => `· ${l}`,
      ),
    ].join('\n'),
  );
  return fitPayload({
    embeds: [
      {
        title: t(language, 'cup.list.title'),
        color: COLOURS.brand,
        description: blocks.length === 0 ? t(language, 'cup.none') : blocks.join('\n\n'),
      },
    ],
  });
}
