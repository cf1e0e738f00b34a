/**
 * The split pictures the feeds send (docs/splits.md): one splits graph per class with club runners
 * in the results thread, and a member's own graph and lost-time bars in the "your result is in" DM,
 * each with the analysis in words (`runnerAnalysisLines`) under it. Drawn only through `drawPicture`,
 * and only when a message is sent (`complete`): each picture costs about 100 ms. Only the classes
 * with the club's runners (or the member) are analysed, in slices of the event loop
 * (docs/splits.md#how-long-it-takes), and what over the limits is not analysed says so
 * (docs/splits.md#limits).
 */
import { drawPicture, type PictureRequest, shownRunners } from '../../../charts/draw.js';
import { canDrawBars, canDrawGraph, noGraph } from '../../../charts/request.js';
import type { EventorClient } from '../../../eventor/client.js';
import type { ResultList } from '../../../eventor/answers.js';
import { type Language, t } from '../../../i18n/index.js';
import { inSlices } from '../../../loop/slices.js';
import {
  DISCORD_LIMITS,
  escapeName,
  type MessagePayload,
  type PayloadFile,
  NAME_MAX,
  pictureFile,
  plainText,
  runnerAnalysisLines,
  tooLargeText,
  truncate,
} from '../../../render/index.js';
import { COLOURS } from '../../../render/pages.js';
import { type CourseAnalysis, completed } from '../../../splits/analysis.js';
import { MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS, MAX_THREAD_CLUB_RUNNERS } from '../../../splits/limits.js';
import {
  analyseGroupSteps,
  analyseResultListSteps,
  type ClassAnalysis,
  type ClassResultLike,
  groupResultListSteps,
  type RunnerGroup,
} from '../../../splits/result-list.js';
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
  analysis: Pick<ClassAnalysis, 'class' | 'leg'> & { courses: readonly { course: string | null }[] },
  courseIndex: number,
  language: Language,
  name: (text: string) => string = (text) => plainText(text, NAME_MAX),
): string {
  const parts = [name(analysis.class)];
  if (analysis.leg !== null) parts.push(t(language, 'render.leg', { leg: analysis.leg }));
  if (analysis.courses.length > 1) parts.push(name(analysis.courses[courseIndex]!.course ?? String(courseIndex + 1)));
  return parts.join(' · ');
}

/**
 * The request as it is kept and drawn: only the runners the picture shows (`shownRunners`). The
 * picture cleans the names and codes it draws and describes (src/charts/text.ts).
 */
const pictureRequest = (request: PictureRequest): PictureRequest => shownRunners(request);

/** A picture as a file of the message: `pictureFile` gives the alt text as `/splits` does. */
async function drawn(request: PictureRequest, name: string): Promise<PayloadFile> {
  return pictureFile(name, await drawPicture(request));
}

/** `**Name**: lost 1:12 at control 7 (leg rank 14/22); about 2:40 in mistakes over the course` */
function runnerLine(course: CourseAnalysis, index: number, language: Language): string {
  const runner = course.results[index]!;
  return `**${escapeName(runner.name)}**: ${runnerAnalysisLines(course, runner, language).join('; ')}`;
}

/** Lines of several runners within an embed description, each made only when it still fits. */
function linesWithin(lines: Iterable<string>, limit: number): string {
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

/** Whether a class of the list has a runner of the club (a person, a relay team or one of its members). */
function hasClubRunner(organisationId: string): (cls: ClassResultLike) => boolean {
  return (cls) =>
    cls.persons.some((p) => p.organisation?.id === organisationId) ||
    cls.teams.some(
      (team) =>
        team.organisations?.some((o) => o.id === organisationId) === true ||
        team.members.some((m) => m.organisation?.id === organisationId),
    );
}

/** A course of a group that could get a graph: its club runners counted before anything is analysed. */
interface Candidate {
  group: RunnerGroup;
  courseIndex: number;
  club: number;
  /** The club runners it counts against the thread's limit: none when the course is not analysed. */
  cost: number;
  /** Its place in the list's order. */
  order: number;
}

/**
 * The results thread's pictures: for each class (race, relay leg, course) with club runners and
 * split times, a graph with the club's runners highlighted and their analysis in words. Pure until
 * `complete` draws. In steps: see {@link clubGraphMessagesSteps}.
 */
export function clubGraphMessages(list: ResultList, organisationId: string, language: Language): PictureMessage[] {
  return completed(clubGraphMessagesSteps(list, organisationId, language));
}

/** {@link clubGraphMessages} spread over turns of the event loop, as the results feed makes them. */
export function clubGraphMessagesInSlices(
  list: ResultList,
  organisationId: string,
  language: Language,
): Promise<PictureMessage[]> {
  return inSlices(clubGraphMessagesSteps(list, organisationId, language));
}

/**
 * {@link clubGraphMessages} in steps. The classes with the most club runners get graphs, at most
 * {@link MAX_THREAD_GRAPHS} and {@link MAX_THREAD_CLUB_RUNNERS} club runners in all; they are chosen
 * from the counts before anything is analysed, and only their classes are, one at a time. A course
 * over the analysis's limits gets the limits' message instead of a graph, and so does the thread
 * when classes were left out for its club runners (docs/splits.md#limits).
 */
export function* clubGraphMessagesSteps(
  list: ResultList,
  organisationId: string,
  language: Language,
): Generator<void, PictureMessage[], void> {
  const groups = yield* groupResultListSteps(list, { include: hasClubRunner(organisationId) });
  const candidates: Candidate[] = [];
  for (const group of groups)
    group.courses.forEach((course, courseIndex) => {
      const club = course.runners.filter((r) => r.organisationId === organisationId).length;
      const analysed = group.runners <= MAX_CLASS_RUNNERS && course.controls.length <= MAX_COURSE_CONTROLS;
      if (course.controls.length > 0 && club > 0)
        candidates.push({ group, courseIndex, club, cost: analysed ? club : 0, order: candidates.length });
    });
  // The classes with the most club runners first; then the list's order (a stable sort).
  const ranked = [...candidates].sort((a, b) => b.club - a.club);
  const made = new Map<Candidate, PictureMessage>();
  const refused = new Set<Candidate>();
  const choose = () => {
    const chosen: Candidate[] = [];
    let clubRunners = 0;
    let leftOut = false;
    for (const candidate of ranked) {
      if (refused.has(candidate)) continue;
      if (chosen.length === MAX_THREAD_GRAPHS) break;
      if (clubRunners + candidate.cost > MAX_THREAD_CLUB_RUNNERS) {
        leftOut = true;
        continue;
      }
      chosen.push(candidate);
      clubRunners += candidate.cost;
    }
    return { chosen, leftOut };
  };
  // A course too small for a graph or without an ideal time (a control without any time) gets no
  // graph, which only its analysis tells: the next candidate takes its place. Each group is analysed once a round.
  let choice = choose();
  for (;;) {
    const todo = choice.chosen.filter((c) => !made.has(c));
    if (todo.length === 0) break;
    for (const group of new Set(todo.map((c) => c.group))) {
      const analysis = yield* analyseGroupSteps(group);
      for (const candidate of todo.filter((c) => c.group === group)) {
        const message = graphMessage(analysis, candidate.courseIndex, organisationId, language);
        if (message === null) refused.add(candidate);
        else made.set(candidate, message);
        yield;
      }
    }
    choice = choose();
  }
  const messages = choice.chosen.sort((a, b) => a.order - b.order).map((c) => made.get(c)!);
  if (choice.leftOut) messages.push(limitsMessage(language));
  return messages;
}

/** The graph message of one course of an analysed class; null when the course has no ideal time to draw from. */
function graphMessage(
  analysis: ClassAnalysis,
  courseIndex: number,
  organisationId: string,
  language: Language,
): PictureMessage | null {
  const course = analysis.courses[courseIndex]!;
  // The pictures' one rule (src/charts/request.ts), as `/splits` and the DM: a course too small for
  // a graph (or without an ideal time to draw from) gets no message; over the limits, the limits' words.
  const why = noGraph(course);
  if (why !== null && why !== 'tooLarge') return null;
  const club = course.results.flatMap((r, i) => (r.organisationId === organisationId ? [i] : []));
  const title = pictureTitle(analysis, courseIndex, language);
  const heading = pictureTitle(analysis, courseIndex, language, escapeName);
  const key = sha256(
    JSON.stringify([analysis.class, analysis.race, analysis.leg, course.course, course.controls]),
  ).slice(0, 16);
  const embedTitle = truncate(t(language, 'feedpost.thread.graphTitle', { class: heading }), DISCORD_LIMITS.embedTitle);
  if (course.tooLarge) {
    // Over the limits: the class is named, and the limits' message stands where the picture would.
    const payload: MessagePayload = {
      embeds: [{ title: embedTitle, description: tooLargeText(language), color: COLOURS.results }],
      allowedMentions: { parse: [] },
    };
    const contentHash = sha256(JSON.stringify({ payload }));
    return { key, payload, contentHash, complete: () => Promise.resolve(payload) };
  }
  const name = `splits-${key.slice(0, 8)}.png`;
  function* words(): Generator<string> {
    for (const i of club) yield runnerLine(course, i, language);
  }
  const payload: MessagePayload = {
    embeds: [
      {
        title: embedTitle,
        description: linesWithin(words(), DISCORD_LIMITS.embedDescription),
        color: COLOURS.results,
        image: { url: `attachment://${name}` },
      },
    ],
    allowedMentions: { parse: [] },
  };
  // Kept with only the runners it draws: the class's whole analysis is not held until it is sent.
  const request = pictureRequest({ kind: 'graph', course, title, highlight: club.slice(0, MAX_HIGHLIGHT), language });
  return {
    key,
    payload,
    // What the picture is drawn from stands in for its bytes: an unchanged class is never drawn.
    contentHash: sha256(JSON.stringify({ payload, request })),
    complete: async () => ({ ...payload, pictures: [await drawn(request, name)] }),
  };
}

/** The thread's message saying that some classes' club runners were left out: over the thread's limit. */
function limitsMessage(language: Language): PictureMessage {
  const payload: MessagePayload = {
    embeds: [{ description: tooLargeText(language), color: COLOURS.results }],
    allowedMentions: { parse: [] },
  };
  return {
    key: sha256('over the limits').slice(0, 16),
    payload,
    contentHash: sha256(JSON.stringify({ payload })),
    complete: () => Promise.resolve(payload),
  };
}

/** What a result DM shows of its runner's analysis, before a picture is drawn. */
export type RunnerPictures =
  /** The list has no split times for them: the DM as it was. */
  | { kind: 'none' }
  /** Their course is over the analysis's limits (docs/splits.md#limits): the limits' message instead. */
  | { kind: 'tooLarge' }
  /** The graph, and the bars when the runner has an estimate of time lost (`canDrawBars`). */
  | { kind: 'pictures'; graph: PictureRequest; bars: PictureRequest | null; lines: string[] };

/** {@link runnerPicturesSteps} to its end at once. */
export function runnerPictures(list: ResultList, personId: string, language: Language): RunnerPictures {
  return completed(runnerPicturesSteps(list, personId, language));
}

/**
 * The runner's pictures and words in a result DM, in steps: only the classes they ran are analysed,
 * and the requests hold only what their pictures show.
 */
export function* runnerPicturesSteps(
  list: ResultList,
  personId: string,
  language: Language,
): Generator<void, RunnerPictures, void> {
  const isRunner = (cls: ClassResultLike): boolean =>
    cls.persons.some((p) => p.person?.id === personId) ||
    cls.teams.some((team) => team.members.some((m) => m.person?.id === personId));
  for (const analysis of yield* analyseResultListSteps(list, { include: isRunner })) {
    for (const [courseIndex, course] of analysis.courses.entries()) {
      const runner = course.results.findIndex((r) => r.personId === personId);
      if (runner < 0) continue;
      if (course.tooLarge && course.controls.length > 0) return { kind: 'tooLarge' };
      // The pictures' one rule (src/charts/request.ts), as `/splits` and the results thread.
      if (!canDrawGraph(course) || course.results[runner]!.legs.every((leg) => leg.time === null))
        return { kind: 'none' };
      const title = pictureTitle(analysis, courseIndex, language);
      return {
        kind: 'pictures',
        graph: pictureRequest({ kind: 'graph', course, title, highlight: [runner], language }),
        // Drawn first in the graph, so the bars are in the same colour (`colour` 0).
        bars: canDrawBars(course, runner)
          ? pictureRequest({ kind: 'bars', course, title, runner, colour: 0, language })
          : null,
        lines: runnerAnalysisLines(course, course.results[runner]!, language),
      };
    }
  }
  return { kind: 'none' };
}

/**
 * A result DM with the runner's own pictures: the splits graph with their line highlighted (the
 * first embed's image), and their time lost per leg with the analysis in words (a second embed).
 * The DM as it was when the list has no split times for them; with the limits' message instead of
 * pictures when their course is over the analysis's limits. Analysed in slices of the event loop.
 */
export async function withRunnerPictures(
  payload: MessagePayload,
  list: ResultList,
  personId: string,
  language: Language,
): Promise<MessagePayload> {
  const shown = await inSlices(runnerPicturesSteps(list, personId, language));
  if (shown.kind === 'none') return payload;
  const [first, ...rest] = payload.embeds ?? [];
  if (shown.kind === 'tooLarge')
    return {
      ...payload,
      embeds: [...(first ? [first] : []), ...rest, { description: tooLargeText(language), color: COLOURS.results }],
    };
  const graph = await drawn(shown.graph, 'splits.png');
  const bars = shown.bars === null ? null : await drawn(shown.bars, 'lost.png');
  return {
    ...payload,
    embeds: [
      ...(first ? [{ ...first, image: { url: 'attachment://splits.png' } }] : []),
      ...rest,
      {
        description: linesWithin(shown.lines, DISCORD_LIMITS.embedDescription),
        color: COLOURS.results,
        ...(bars === null ? {} : { image: { url: 'attachment://lost.png' } }),
      },
    ],
    pictures: bars === null ? [graph] : [graph, bars],
  };
}
