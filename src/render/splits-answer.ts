/**
 * The `/splits` answer (docs/members.md#splits-where-you-lost-time): the graph of a course with
 * the member and the club's runners drawn strong, the lost-per-leg bars of the member asked
 * about, and under the graph the analysis in words for a handful of them.
 */
import type { EventRef } from '../eventor/answers.js';
import { formatElapsed } from '../eventor/time.js';
import { type Language, t } from '../i18n/index.js';
import type { ClassAnalysis, NamedCourseAnalysis } from '../splits/result-list.js';
import { DISCORD_LIMITS, fitPayload } from './fit.js';
import { escapeName, eventUrl, formatPlace, formatStatus, plainText, truncate } from './format.js';
import { COLOURS } from './pages.js';
import { eventId, eventName, type RaceKeyed, raceLabel } from './races.js';
import { runnerAnalysisLines } from './split-analysis.js';
import type { MessagePayload, PayloadFile, RenderContext } from './types.js';

/** Runners whose analysis is written out under the graph; the rest of the club's are in the graph only. */
export const MAX_RUNNERS_IN_WORDS = 5;

/** File names of the pictures; the embeds point at them with `attachment://`. */
export const GRAPH_FILE = 'splits.png';
export const BARS_FILE = 'lost-per-leg.png';

/** What the answer shows: one course of a class, and who in it is picked out. */
export interface SplitsAnswer {
  event: EventRef;
  group: Pick<ClassAnalysis, 'class' | 'race' | 'leg'>;
  course: NamedCourseAnalysis;
  /** Indices into `course.results` drawn strong, the member asked about first. */
  highlight: readonly number[];
  /** Index of the member asked about, or null for the club's runners. */
  focus: number | null;
  /** The caller has no result in the class: the club's runners are shown instead. */
  ownNotFound: boolean;
  otherClasses: readonly string[];
}

/** A drawn picture as the renderer takes it (src/charts' `Picture`). */
export interface DrawnPicture {
  png: Uint8Array;
  alt: string;
}

/** The race of a group as the result list keys it: by Eventor race id (native lists) or number (IOF). */
function raceOf(group: SplitsAnswer['group'], event: EventRef): RaceKeyed | null {
  if (group.race === null) return null;
  const byId = event.event?.races.some((r) => r.id === group.race) ?? false;
  return byId ? { raceId: group.race, raceNumber: null } : { raceId: null, raceNumber: Number(group.race) || 1 };
}

/** The class as the title names it: `H21`, `H21, Stage 2`, `H21, Leg 2`, with the course of a forked class. */
export function splitsGroupName(answer: Pick<SplitsAnswer, 'event' | 'group' | 'course'>, ctx: RenderContext): string {
  const { group, event } = answer;
  const parts = [escapeName(group.class)];
  const race = raceOf(group, event);
  if (race !== null) parts.push(raceLabel(race, event, ctx.language, { besideLeg: group.leg !== null }));
  if (group.leg !== null) parts.push(t(ctx.language, 'render.leg', { leg: group.leg }));
  if (answer.course.course !== null)
    parts.push(t(ctx.language, 'splits.course', { course: escapeName(answer.course.course) }));
  return parts.join(', ');
}

/**
 * The class as plain text for a picture's title (a picture shows no markdown): `H21`,
 * `H21, Stage 2`, `H21, Leg 2`.
 */
export function splitsPictureTitle(answer: Pick<SplitsAnswer, 'event' | 'group'>, language: Language): string {
  const { group, event } = answer;
  const parts = [plainText(group.class, 60)];
  const race = raceOf(group, event);
  if (race !== null) {
    const index = race.raceId === null ? -1 : (event.event?.races.findIndex((r) => r.id === race.raceId) ?? -1);
    const number = index >= 0 ? index + 1 : (race.raceNumber ?? 1);
    parts.push(t(language, group.leg === null ? 'render.race' : 'render.raceBesideLeg', { number }));
  }
  if (group.leg !== null) parts.push(t(language, 'render.leg', { leg: group.leg }));
  return parts.join(', ');
}

/** `**Name** 3. 45:12` then the analysis lines, for one runner of the course. */
function runnerBlock(course: NamedCourseAnalysis, index: number, ctx: RenderContext): string {
  const runner = course.results[index]!;
  const result =
    runner.status === 'OK' && runner.time !== null
      ? `${formatPlace(runner.place)} ${formatElapsed(runner.time)}`.trim()
      : formatStatus(runner.status, ctx.language);
  const lines = runnerAnalysisLines(course, runner, ctx.language).map((line) => `· ${line}`);
  return [`**${escapeName(runner.name)}** ${result}`.trim(), ...lines].join('\n');
}

/**
 * The answer: an embed with the graph and the words, and one with the bars when there is one.
 * `graph` and `bars` are the pictures the caller drew (null when there is none to show).
 */
export function renderSplitsAnswer(
  answer: SplitsAnswer,
  pictures: { graph: DrawnPicture | null; bars: DrawnPicture | null },
  ctx: RenderContext,
): MessagePayload {
  const { course } = answer;
  const { language } = ctx;
  const lines: string[] = [
    t(language, 'splits.ideal', {
      ideal: course.ideal === null ? '–' : formatElapsed(course.ideal),
      count: course.results.length,
      controls: course.controls.length,
    }),
  ];
  if (answer.ownNotFound) lines.push(t(language, 'splits.ownNotFound'));
  if (answer.highlight.length === 0) lines.push(t(language, 'splits.noClubRunners'));
  const inWords = answer.highlight.slice(0, MAX_RUNNERS_IN_WORDS);
  for (const index of inWords) lines.push('', runnerBlock(course, index, ctx));
  if (answer.highlight.length > inWords.length)
    lines.push('', t(language, 'splits.more', { count: answer.highlight.length - inWords.length }));
  if (answer.otherClasses.length > 0)
    lines.push(
      '',
      t(language, 'splits.otherClasses', {
        classes: answer.otherClasses.map((name) => escapeName(name, { max: 30 })).join(', '),
      }),
    );

  const id = eventId(answer.event);
  const title = t(language, 'splits.title', {
    class: splitsGroupName(answer, ctx),
    event: eventName(answer.event, language),
  });
  const embeds = [
    {
      title: truncate(title, 256),
      ...(id ? { url: eventUrl(ctx, id) } : {}),
      color: COLOURS.results,
      description: lines.join('\n'),
      ...(pictures.graph ? { image: { url: `attachment://${GRAPH_FILE}` } } : {}),
    },
    ...(pictures.bars ? [{ color: COLOURS.results, image: { url: `attachment://${BARS_FILE}` } }] : []),
  ];
  const files: PayloadFile[] = [];
  if (pictures.graph) files.push(pictureFile(GRAPH_FILE, pictures.graph));
  if (pictures.bars) files.push(pictureFile(BARS_FILE, pictures.bars));
  // fitPayload knows only the text parts; the pictures ride beside them untouched.
  return { ...fitPayload({ embeds }), ...(files.length > 0 ? { pictures: files } : {}) };
}

/**
 * A drawn picture as a file of a message: `/splits`, the results thread and the result DM all send
 * theirs through here. Its alt text is plain text (the pictures make it from cleaned names and
 * codes; cleaned once more here, as every plain text the bot sends) within Discord's limit.
 */
export function pictureFile(name: string, picture: DrawnPicture): PayloadFile {
  return { name, data: picture.png, description: plainText(picture.alt, DISCORD_LIMITS.altText) };
}
