/**
 * The split pictures the feeds send (docs/splits.md): one splits graph per class with club runners
 * in the results thread, and a member's own graph and lost-time bars in the "your result is in" DM,
 * each with the analysis in words (`runnerAnalysisLines`) under it. Drawn only through `drawPicture`,
 * and only when a message is sent (`complete`): each picture costs about 100 ms.
 */
import { drawPicture, type PictureRequest } from '../../../charts/draw.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { ResultList } from '../../../eventor/answers.js';
import { type Language, t } from '../../../i18n/index.js';
import {
  DISCORD_LIMITS,
  escapeName,
  type MessagePayload,
  type PayloadFile,
  NAME_MAX,
  pictureFile,
  plainText,
  runnerAnalysisLines,
  truncate,
} from '../../../render/index.js';
import { COLOURS } from '../../../render/pages.js';
import type { CourseAnalysis } from '../../../splits/analysis.js';
import { analyseResultList, type ClassAnalysis } from '../../../splits/result-list.js';
import { sha256 } from '../../delivery/keys.js';

/** Runners drawn strong in one graph at most (the charts' own limit); the rest of the club still gets its lines. */
export const MAX_HIGHLIGHT = 12;
/** Graph messages in one results thread at most: a big club at a big event gets its largest classes. */
export const MAX_THREAD_GRAPHS = 20;

/** A message with a picture, drawn only when sent; its hash tells changes apart without drawing. */
export interface PictureMessage {
  /** Stable for the class and course across corrections (a ledger key part). */
  key: string;
  /** The message without its picture (what is sent if drawing fails). */
  payload: MessagePayload;
  contentHash: string;
  complete: () => Promise<MessagePayload>;
}

/** The list narrowed to one race of a multi-race event (relay teams kept whole). */
export function listOfRace(list: ResultList, raceId: string): ResultList {
  const classes = list.classes.flatMap((c) => {
    const persons = c.persons
      .map((p) => ({ ...p, results: p.results.filter((r) => r.raceId === raceId) }))
      .filter((p) => p.results.length > 0);
    return persons.length > 0 || c.teams.length > 0 ? [{ ...c, persons }] : [];
  });
  return { ...list, classes };
}

/**
 * The list narrowed to the race of a DM (`raceKey` of `src/render/races.ts`: `id:<raceId>` or
 * `n:<number>`); a single race (`n:1`) is the whole list.
 */
export function listOfRaceKey(list: ResultList, race: string): ResultList {
  if (race.startsWith('id:')) return listOfRace(list, race.slice(3));
  const number = Number(race.slice(2));
  if (!(number > 1)) return list;
  const classes = list.classes.flatMap((c) => {
    const persons = c.persons
      .map((p) => ({ ...p, results: p.results.filter((r) => r.raceNumber === number) }))
      .filter((p) => p.results.length > 0);
    return persons.length > 0 ? [{ ...c, persons, teams: [] }] : [];
  });
  return { ...list, classes };
}

/**
 * The event's complete results with split times (one request, cached by the shared client and
 * shared by every club of the instance), narrowed to the race when there is one.
 */
export async function eventResultsWithSplits(
  client: EventorClient,
  eventId: string,
  raceId: string | null,
): Promise<ResultList> {
  const list = await client.eventResults({ eventId, includeSplitTimes: true });
  return raceId === null ? list : listOfRace(list, raceId);
}

/**
 * What a picture is of: the class, the relay leg, the course of a forked class. Eventor's names go
 * through `name`: plain text for the picture and its alt text, escaped for an embed's markdown.
 */
function pictureTitle(
  analysis: ClassAnalysis,
  courseIndex: number,
  language: Language,
  name: (text: string) => string = (text) => plainText(text, NAME_MAX),
): string {
  const parts = [name(analysis.class)];
  if (analysis.leg !== null) parts.push(t(language, 'render.leg', { leg: analysis.leg }));
  if (analysis.courses.length > 1) parts.push(name(analysis.courses[courseIndex]!.course ?? String(courseIndex + 1)));
  return parts.join(' · ');
}

const hasSplits = (course: CourseAnalysis): boolean => course.controls.length > 0 && course.ideal !== null;

/**
 * A picture as a file of the message. The picture cleans the names and codes it draws and
 * describes (src/charts/text.ts); `pictureFile` gives the alt text as `/splits` does.
 */
async function drawn(request: PictureRequest, name: string): Promise<PayloadFile> {
  return pictureFile(name, await drawPicture(request));
}

/** `**Name**: lost 1:12 at control 7 (leg rank 14/22); about 2:40 in mistakes over the course` */
function runnerLine(course: CourseAnalysis, index: number, language: Language): string {
  const runner = course.results[index]!;
  return `**${escapeName(runner.name)}**: ${runnerAnalysisLines(course, runner, language).join('; ')}`;
}

/** The lines of several runners within an embed description. */
function linesWithin(lines: readonly string[], limit: number): string {
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > limit - 2) {
      kept.push('…');
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return kept.join('\n');
}

/**
 * The results thread's pictures: for each class (race, relay leg, course) with club runners and
 * split times, a graph with the club's runners highlighted and their analysis in words. Pure until
 * `complete` draws.
 */
export function clubGraphMessages(list: ResultList, organisationId: string, language: Language): PictureMessage[] {
  const messages: Array<PictureMessage & { club: number }> = [];
  for (const analysis of analyseResultList(list)) {
    analysis.courses.forEach((course, courseIndex) => {
      if (!hasSplits(course)) return;
      const club = course.results.flatMap((r, i) => (r.organisationId === organisationId ? [i] : []));
      if (club.length === 0) return;
      const title = pictureTitle(analysis, courseIndex, language);
      const heading = pictureTitle(analysis, courseIndex, language, escapeName);
      const key = sha256(
        JSON.stringify([analysis.class, analysis.race, analysis.leg, course.course, course.controls]),
      ).slice(0, 16);
      const name = `splits-${key.slice(0, 8)}.png`;
      const payload: MessagePayload = {
        embeds: [
          {
            title: truncate(t(language, 'feedpost.thread.graphTitle', { class: heading }), DISCORD_LIMITS.embedTitle),
            description: linesWithin(
              club.map((i) => runnerLine(course, i, language)),
              DISCORD_LIMITS.embedDescription,
            ),
            color: COLOURS.results,
            image: { url: `attachment://${name}` },
          },
        ],
        allowedMentions: { parse: [] },
      };
      const request: PictureRequest = {
        kind: 'graph',
        course,
        title,
        highlight: club.slice(0, MAX_HIGHLIGHT),
        language,
      };
      messages.push({
        key,
        club: club.length,
        payload,
        // What the picture is drawn from stands in for its bytes: an unchanged class is never drawn.
        contentHash: sha256(JSON.stringify({ payload, request })),
        complete: async () => ({ ...payload, pictures: [await drawn(request, name)] }),
      });
    });
  }
  // The classes with the most club runners first when there are too many; then the list's order.
  const kept = new Set(
    [...messages]
      .sort((a, b) => b.club - a.club)
      .slice(0, MAX_THREAD_GRAPHS)
      .map((m) => m.key),
  );
  return messages.filter((m) => kept.has(m.key)).map(({ club: _club, ...message }) => message);
}

/**
 * A result DM with the runner's own pictures: the splits graph with their line highlighted (the
 * first embed's image), and their time lost per leg with the analysis in words (a second embed).
 * The DM as it was when the list has no split times for them.
 */
export async function withRunnerPictures(
  payload: MessagePayload,
  list: ResultList,
  personId: string,
  language: Language,
): Promise<MessagePayload> {
  for (const analysis of analyseResultList(list)) {
    for (const [courseIndex, course] of analysis.courses.entries()) {
      const runner = course.results.findIndex((r) => r.personId === personId);
      if (runner < 0) continue;
      if (!hasSplits(course) || course.results[runner]!.legs.every((leg) => leg.time === null)) return payload;
      const title = pictureTitle(analysis, courseIndex, language);
      const graph = await drawn({ kind: 'graph', course, title, highlight: [runner], language }, 'splits.png');
      const bars = await drawn({ kind: 'bars', course, title, runner, language }, 'lost.png');
      const lines = runnerAnalysisLines(course, course.results[runner]!, language);
      const [first, ...rest] = payload.embeds ?? [];
      return {
        ...payload,
        embeds: [
          ...(first ? [{ ...first, image: { url: 'attachment://splits.png' } }] : []),
          ...rest,
          {
            description: linesWithin(lines, DISCORD_LIMITS.embedDescription),
            color: COLOURS.results,
            image: { url: 'attachment://lost.png' },
          },
        ],
        pictures: [graph, bars],
      };
    }
  }
  return payload;
}
