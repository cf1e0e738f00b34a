/**
 * Part 3 of `npm run demo`: the automatic posts. The loopback world (sandbox Eventor, sandbox
 * Discord and the real bot in this process) runs on a simulated clock. An admin turns the feeds
 * on with the real `/feeds` command and defines a club cup whose standings are posted (a member,
 * Astrid, asks `/next` and turns on the day-before reminder); the clock then moves through a race weekend of the club,
 * ticking the real feed scheduler, and the transcript shows every post and edit the bot makes in
 * the club's channels, with the local time (Europe/Stockholm) it happened at.
 *
 * The sandbox's data is made once for a fixed "now" (BASE; `npm run demo` passes the moment it
 * started, which parts 1 and 2 use too, so the race has the same date in every part): past events have results, the next
 * one has its draw, later ones have neither. So the followed race gets its start list and its
 * results here, at the times an organiser would publish them, and then a correction; the
 * transcript says so each time.
 */
import {
  millisecondsInDay as DAY,
  millisecondsInHour as HOUR,
  millisecondsInMinute as MINUTE,
} from 'date-fns/constants';
import type { PersonResult } from '../../src/eventor/model.js';
import { formatElapsed } from '../../src/eventor/time.js';
import { KindSettings } from '../../src/feeds/settings.js';
import {
  type MessageView,
  renderInteractionText,
  renderMessageText,
  type SandboxUser,
  type ScheduledEventView,
  type TimestampReader,
} from '../sandbox/discord/index.js';
import type { SandboxDataset, SandboxEvent } from '../sandbox/eventor/dataset.js';
import { SANDBOX_TIME_ZONE } from '../sandbox/eventor/dataset.js';
import { type LoopbackWorld, startLoopbackWorld } from '../loopback/world.js';
import { addDays, localToday, weekdayOf } from '../../src/time/days.js';
import { localToInstant } from '../../src/time/zones.js';
import { humanize, indent } from './bot-session.js';
import type { DemoPictures } from './pictures.js';

const ZONE = SANDBOX_TIME_ZONE;
/** The sandbox's reference "now" (its events are placed around it): fixed, so every run is the same. */
export const SCHEDULER_DEMO_BASE = new Date('2026-10-01T10:00:00Z');
/** At most this many scheduler ticks (the walk below takes about 900). */
const MAX_TICKS = 3_000;

const stamp = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dayName = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, weekday: 'long', day: 'numeric', month: 'long' });

/** One message the bot made in a feed channel, as the transcript showed it. */
export interface SchedulerPost {
  kind: 'reminders' | 'startlists' | 'results' | 'digest' | 'cup-standings';
  channel: string;
  messageId: string;
  /** When it was posted (simulated instant, ISO). */
  at: string;
  /** As first posted. */
  text: string;
  /** After its last edit (the same as `text` when never edited). */
  finalText: string;
  /** When each edit was seen (simulated instants, ISO), oldest first. */
  edits: string[];
}

export interface SchedulerSessionResult {
  /** The followed race. */
  event: { id: string; name: string; start: string };
  posts: SchedulerPost[];
  /** The correction made in the sandbox Eventor: whose time, from and to (seconds). */
  correction: { name: string; className: string; from: number; to: number } | null;
  /** When it was made (simulated instant, ISO), or null. */
  correctedAt: string | null;
  ticks: number;
  /** What the walk expected and did not see (empty when everything happened). */
  problems: string[];
}

type Kind = SchedulerPost['kind'];
type Materialized = NonNullable<SandboxEvent['materialized']>;

/** A local wall-clock time on the day `offsetDays` from the local date `date`, as an instant. */
function localAt(date: string, offsetDays: number, clock: string): Date {
  return new Date(localToInstant(addDays(date, offsetDays), clock, ZONE)!);
}

const clubEntryCount = (dataset: SandboxDataset, ev: SandboxEvent): number =>
  dataset.details(ev).entries.filter((e) => e.competitor?.organisation?.id === dataset.homeClub.id).length;

/**
 * The first single-race Saturday event at national or international level (a race the club
 * travels to) starting at least nine days after BASE, with club entries and a club runner behind a
 * class winner (whose time the correction changes); else the first such weekend event of any level.
 */
export function pickRace(dataset: SandboxDataset, base: Date = SCHEDULER_DEMO_BASE): SandboxEvent {
  const candidates = dataset.events
    .filter(
      (ev) =>
        ev.shape === 'single' && ev.event.status !== 'canceled' && ev.syntheticRunners === 0 && ev.event.start !== null,
    )
    .filter((ev) => Date.parse(ev.event.start!) > base.getTime() + 9 * DAY)
    .sort((a, b) => Date.parse(a.event.start!) - Date.parse(b.event.start!))
    .filter((ev) => clubEntryCount(dataset, ev) > 0);
  const weekday = (ev: SandboxEvent): number => weekdayOf(localToday(new Date(ev.event.start!), ZONE));
  const weekend = (ev: SandboxEvent): boolean => [0, 6].includes(weekday(ev));
  const big = (ev: SandboxEvent): boolean =>
    weekday(ev) === 6 && ['national', 'international'].includes(ev.event.classification);
  const correctable = (ev: SandboxEvent): boolean => correctionIn(dataset, fullDetails(dataset, ev)) !== null;
  // A weekend race when the data has one in reach, else the first race (some days' data has none).
  const race =
    candidates.find((ev) => big(ev) && correctable(ev)) ??
    candidates.find((ev) => weekend(ev) && correctable(ev)) ??
    candidates.find(correctable);
  if (!race) throw new Error('the sandbox has no race with club entries and a club runner behind a winner');
  return race;
}

/**
 * Two races of the club after the followed one's week (entered by the club, within the 60 days the
 * calendar kind looks ahead of the walk's start), nearest first: the walk moves the first a day
 * later and cancels the second in the sandbox Eventor, before either is run.
 */
export function pickChangedRaces(dataset: SandboxDataset, race: SandboxEvent): [SandboxEvent, SandboxEvent] {
  const raceDate = localToday(new Date(race.event.start!), ZONE);
  const after = localAt(raceDate, -2, '00:00').getTime();
  const before = localAt(raceDate, -8, '12:00').getTime() + 55 * DAY;
  const [first, second] = dataset.events
    .filter((ev) => ev !== race && ev.event.start !== null && ev.event.status !== 'canceled')
    .filter((ev) => Date.parse(ev.event.start!) > after && Date.parse(ev.event.start!) < before)
    .filter((ev) => clubEntryCount(dataset, ev) > 0)
    .sort((a, b) => Date.parse(a.event.start!) - Date.parse(b.event.start!));
  if (!first || !second) throw new Error('the sandbox has no two later races with club entries in reach');
  return [first, second];
}

/** The event's classes, entries, start list and results as they will be once all is published; the event is left as it was. */
function fullDetails(dataset: SandboxDataset, ev: SandboxEvent): Materialized {
  const { hasStartList, hasResults, materialized } = ev;
  ev.hasStartList = true;
  ev.hasResults = true;
  ev.materialized = null;
  try {
    return dataset.details(ev);
  } finally {
    ev.hasStartList = hasStartList;
    ev.hasResults = hasResults;
    ev.materialized = materialized;
  }
}

/**
 * The sandbox makes an event's entries, draw and results from one random stream, so turning its
 * results on later (and regenerating) would also change its entries and start times. The race is
 * therefore made once with everything, and what is published is revealed step by step.
 */
export function stageRace(
  dataset: SandboxDataset,
  ev: SandboxEvent,
): { full: Materialized; publishStartList(): void; publishResults(): void } {
  ev.hasStartList = true;
  ev.hasResults = true;
  ev.materialized = null;
  const full: Materialized = dataset.details(ev);
  ev.hasStartList = false;
  ev.hasResults = false;
  ev.materialized = { ...full, startList: null, resultList: null };
  return {
    full,
    publishStartList() {
      ev.hasStartList = true;
      ev.materialized = { ...full, resultList: null };
    },
    publishResults() {
      ev.hasResults = true;
      ev.materialized = full;
    },
  };
}

type Correction = { personId: string; name: string; className: string; from: number; to: number };

/**
 * A correction after a protest: the club's best runner not yet first in a class gets a time just
 * under the winner's; of several classes, where the club runner is closest behind (a small
 * correction). Null when no club runner is behind a class winner.
 */
function correctionIn(dataset: SandboxDataset, full: Materialized): Correction | null {
  const home = dataset.homeClub.id;
  let best: Correction | null = null;
  for (const cls of full.resultList?.classes ?? []) {
    const winnerTime = cls.persons.find((p) => p.results[0]?.position === 1)?.results[0]?.time;
    const runner = cls.persons.find(
      (p: PersonResult) =>
        p.organisation?.id === home &&
        p.person?.id &&
        p.results[0]?.status === 'OK' &&
        (p.results[0].position ?? 0) > 1,
    );
    const time = runner?.results[0]?.time;
    if (!runner || winnerTime == null || time == null) continue;
    if (best !== null && time - (winnerTime - 4) >= best.from - best.to) continue;
    best = {
      personId: runner.person!.id!,
      name: `${runner.person!.name.given} ${runner.person!.name.family}`,
      className: cls.class.name,
      from: time,
      to: winnerTime - 4,
    };
  }
  return best;
}

export function pickCorrection(dataset: SandboxDataset, full: Materialized): Correction {
  const correction = correctionIn(dataset, full);
  if (correction === null) throw new Error('the followed race has no club runner behind a class winner');
  return correction;
}

/** A second correction, of another club runner: half a minute more (a time penalty). */
function secondCorrection(dataset: SandboxDataset, full: Materialized, notPersonId: string): Correction | null {
  for (const cls of full.resultList?.classes ?? []) {
    const runner = cls.persons.find(
      (p) =>
        p.organisation?.id === dataset.homeClub.id &&
        p.person?.id &&
        p.person.id !== notPersonId &&
        p.results[0]?.status === 'OK' &&
        p.results[0].time != null,
    );
    if (!runner) continue;
    const from = runner.results[0]!.time!;
    return {
      personId: runner.person!.id!,
      name: `${runner.person!.name.given} ${runner.person!.name.family}`,
      className: cls.class.name,
      from,
      to: from + 30,
    };
  }
  return null;
}

/** How many lines of a thread's message the transcript shows: the thread holds the club's complete results. */
const THREAD_LINES = 12;

/** The first `lines` lines of a text, and how many more there are; the lines naming saved pictures always show. */
export function shortened(text: string, lines: number): string {
  const all = text.split('\n');
  if (all.length <= lines) return text;
  const files = all.slice(lines).filter((line) => /^\[(file|image): /.test(line));
  return [...all.slice(0, lines), `… (${all.length - lines - files.length} more lines)`, ...files].join('\n');
}

/** Lines removed ("- ") and added ("+ ") between two texts, unchanged ones indented: a small LCS diff. */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push(`- ${a[i++]}`);
    else out.push(`+ ${b[j++]}`);
  }
  return out;
}

export interface SchedulerSessionOptions {
  /** The sandbox's "now", which its data is made around and the walk starts after (default SCHEDULER_DEMO_BASE). */
  base?: Date;
  /** Told the sandbox data as the session starts. */
  onDataset?: (dataset: SandboxDataset) => void;
  /** Where the files attached to the posts shown are written (the transcript names each). */
  pictures?: DemoPictures;
}

export async function runSchedulerSession(
  write: (line: string) => void,
  options: SchedulerSessionOptions = {},
): Promise<SchedulerSessionResult> {
  const base = options.base ?? SCHEDULER_DEMO_BASE;
  let clock = base;
  const world: LoopbackWorld = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
  options.onDataset?.(world.eventor.dataset);
  const problems: string[] = [];
  const posts: SchedulerPost[] = [];
  const corrected: { at: string | null; what: SchedulerSessionResult['correction'] } = { at: null, what: null };
  let ticks = 0;
  try {
    const dataset = world.eventor.dataset;
    const race = pickRace(dataset, base);
    const stage = stageRace(dataset, race);
    const raceDate = localToday(new Date(race.event.start!), ZONE);
    const raceStart = new Date(race.event.start!);
    const guildId = world.guild.id;
    const channels: Record<Kind, { id: string; name: string }> = {
      reminders: { id: '', name: 'anmälan' },
      startlists: { id: '', name: 'startlistor' },
      results: { id: '', name: 'resultat' },
      digest: { id: '', name: 'veckan' },
      'cup-standings': { id: '', name: 'cupen' },
    };
    for (const kind of Object.keys(channels) as Kind[])
      channels[kind].id = world.discord.createTextChannel(guildId, { name: channels[kind].name }).id;
    const names = new Map<string, string>([
      [world.channel.id, world.channel.name ?? 'allmänt'],
      ...Object.values(channels).map((c): [string, string] => [c.id, c.name]),
      ...[world.member, world.swedishMember, world.admin].map((u): [string, string] => [u.id, u.username]),
    ]);
    const origin = new URL(world.eventor.baseUrl).origin;
    // Where the sandbox Discord keeps attached files (an embed's picture names it once sent).
    const discordOrigin = new URL(world.discord.restUrl).origin;
    /** What Discord shows, with the sandbox's random ports left out so runs compare. */
    // The channels are read by Astrid, whose Discord speaks British English, in the club's zone.
    const reader = (): TimestampReader => ({ locale: 'en-GB', timeZone: ZONE, now: clock.getTime() });
    const show = (text: string): string =>
      humanize(text, reader(), names)
        .replaceAll(origin, 'http://127.0.0.1:<port>')
        // An embed's picture by its file's name: the stored file's address is the sandbox's and the run's.
        .replace(/\[image: [^\]\s]*\/attachments\/\d+\/\d+\/([^\]\s/]+)\]/g, '[image: $1]')
        .replaceAll(discordOrigin, 'http://127.0.0.1:<discord>');

    const from = localAt(raceDate, -8, '12:00');
    const end = localAt(raceDate, 2, '00:00');
    write(
      `The loopback world (sandbox Eventor, sandbox Discord, the real bot in this process) on a simulated clock; times are ${ZONE}.`,
    );
    write(
      `The race followed: ${race.name} (${race.event.classification} level), ${dayName.format(raceStart)} at ${stamp.format(raceStart).slice(-5)}, with entries from ${dataset.homeClub.name}; the club's other races that week stay without start lists and results in the sandbox.`,
    );
    write(
      `The clock starts ${stamp.format(from)} and runs to ${stamp.format(end)}: an hour at a time, every 15 minutes in the two days before the race, every 5 minutes on race day and the day after (the scheduler's own cadence there).`,
    );

    // The admin turns the feeds on, one channel each, and keeps the night quiet.
    clock = from;
    /** A command run by `user` in the club's #allmänt, and the bot's answer (a private one shows as such). */
    const run = async (
      user: SandboxUser,
      name: string,
      subcommand: string | null,
      options: Record<string, string | number | boolean>,
    ): Promise<string> => {
      const handle = world.discord.runCommand({
        guildId,
        channelId: world.channel.id,
        user,
        locale: 'en-GB',
        name,
        ...(subcommand === null ? {} : { subcommand }),
        options,
      });
      let line = renderInteractionText(handle.payload);
      for (const [id, name] of names) line = line.replace(`channel: ${id}`, `channel: #${name}`);
      line = line.replace(`member: ${world.member.id}`, `member: @${world.member.username}`);
      write(`\n── [${stamp.format(clock)}] ${line}`);
      const reply = await handle.reply({ timeoutMs: 20_000 });
      const text = show(renderMessageText(reply, { reader: reader() }));
      write(indent(text));
      return text;
    };
    const admin = async (
      subcommand: string,
      options: Record<string, string | number | boolean>,
      name = 'feeds',
    ): Promise<void> => void (await run(world.admin, name, subcommand, options));
    // The server's Discord language is Swedish, so its automatic posts would be Swedish; this club
    // has members who read English, and the admin chooses English for the posts (the transcript's reader is Astrid).
    await admin('language', { language: 'en' }, 'setup');
    for (const kind of Object.keys(channels) as Kind[]) await admin('on', { kind, channel: channels[kind].id });
    // A club cup over the year, its standings posted in #cupen and edited after each race that counts.
    await admin('create', { name: 'Klubbcupen', scoring: 'place', best: 5, post: true }, 'cup');
    await admin('quiet', { from: 22, to: 7 });
    // A thread under each results post: the club's complete results, and a split graph per class.
    await admin('threads', { state: 'on' });
    const settings = new KindSettings(world.bot.store, () => clock);
    for (const kind of Object.keys(channels) as Kind[]) {
      if (!(await settings.get(guildId, kind)).enabled) problems.push(`/feeds on ${kind} did not turn it on`);
    }

    // The club's races in the server's Events tab: the owner gives the bot Create Events and Manage
    // Events (the invite asks for both), and the admin turns the kind on; it needs no channel.
    world.discord.setBotCanCreateEvents(guildId, true);
    world.discord.setBotCanManageEvents(guildId, true);
    await admin('on', { kind: 'calendar' });
    // Two of the club's later races change in Eventor during the walk: one moves a day later, one is cancelled.
    const [moved, cancelled] = pickChangedRaces(dataset, race);
    const movedTo = addDays(localToday(new Date(moved.event.start!), ZONE), 1);

    // Astrid, a member of the club, is one of its runners in the race (an admin links her to that
    // person); she asks /next, and wants the reminder the day before the race by DM.
    const astrid = world.member;
    const runner = (stage.full.startList?.classes ?? [])
      .flatMap((c) => c.persons)
      .find((p) => p.organisation?.id === dataset.homeClub.id && p.person?.id && p.starts[0]?.startTime);
    if (!runner) throw new Error('the race has no club runner with a start time');
    await admin('link', { member: astrid.id, person: runner.person!.id! }, 'admin');
    await run(astrid, 'notify', 'on', { what: 'tomorrow' });
    const nextAnswers = [await run(astrid, 'next', null, {})];

    // What happens in the sandbox Eventor, at the times an organiser would do it.
    const correction = pickCorrection(dataset, stage.full);
    corrected.what = {
      name: correction.name,
      className: correction.className,
      from: correction.from,
      to: correction.to,
    };
    let resultsAt: string | null = null;
    const happenings: Array<{ at: Date; note: string | null; act: () => void | Promise<void> }> = [
      {
        at: localAt(raceDate, -1, '12:00'),
        note: `The organiser publishes the start list of ${race.name} in the sandbox Eventor (the sandbox's data has none this early).`,
        act: () => stage.publishStartList(),
      },
      {
        at: localAt(raceDate, -1, '20:00'),
        // Astrid asks again the evening before the race, the start list out (the command shows itself).
        note: null,
        act: async () => void nextAnswers.push(await run(astrid, 'next', null, {})),
      },
      {
        at: localAt(raceDate, -6, '09:00'),
        note: `The organiser of ${moved.name} moves it a day later, to ${dayName.format(new Date(localToInstant(movedTo, '12:00', ZONE)!))}, in the sandbox Eventor.`,
        act: () => dataset.changeEvent(moved.id, { date: movedTo }),
      },
      {
        at: localAt(raceDate, -4, '15:00'),
        note: `The organiser cancels ${cancelled.name} in the sandbox Eventor.`,
        act: () => dataset.changeEvent(cancelled.id, { statusId: '10' }),
      },
      {
        at: new Date(raceStart.getTime() + 150 * MINUTE),
        note: `The organiser uploads the results of ${race.name} to the sandbox Eventor.`,
        act: () => {
          stage.publishResults();
          resultsAt = clock.toISOString();
        },
      },
      {
        at: localAt(raceDate, 1, '10:00'),
        note: `After a protest the organiser corrects ${correction.name}'s time in ${correction.className} from ${formatElapsed(correction.from)} to ${formatElapsed(correction.to)} in the sandbox Eventor (correctResult).`,
        act: () => {
          dataset.correctResult(race.id, correction.personId, { time: correction.to });
          corrected.at = clock.toISOString();
        },
      },
    ];

    const savePictures = (what: string, message: MessageView): void => {
      if (options.pictures && message.attachments.length > 0)
        write(indent(options.pictures.save(what, message.attachments)));
    };
    const seen = new Map<string, SchedulerPost & { revisions: number }>();
    const collect = (): void => {
      for (const kind of Object.keys(channels) as Kind[]) {
        for (const message of world.discord.messages(channels[kind].id) as MessageView[]) {
          if (!message.author.bot) continue;
          const text = show(renderMessageText(message, { reader: reader() }));
          const known = seen.get(message.id);
          if (!known) {
            const post = {
              kind,
              channel: channels[kind].name,
              messageId: message.id,
              at: clock.toISOString(),
              text,
              finalText: text,
              edits: [],
              revisions: message.edits.length,
            };
            seen.set(message.id, post);
            posts.push(post);
            write(`\n── [${stamp.format(clock)}] #${channels[kind].name}, a new post:`);
            write(indent(text));
            savePictures(`part3-${channels[kind].name}-${posts.length}`, message);
          } else if (message.edits.length > known.revisions) {
            const before = show(renderMessageText(message.edits[known.revisions]!, { reader: reader() }));
            known.revisions = message.edits.length;
            known.edits.push(clock.toISOString());
            known.finalText = text;
            write(
              `\n── [${stamp.format(clock)}] #${channels[kind].name}, the bot edited its post of ${stamp.format(new Date(known.at))} ("-" gone, "+" new):`,
            );
            write(
              indent([
                text.split('\n')[0]!,
                ...lineDiff(before, show(renderMessageText(message, { header: false, reader: reader() }))),
              ]),
            );
            savePictures(`part3-${channels[kind].name}-${posts.indexOf(known) + 1}-edit${known.edits.length}`, message);
          }
        }
      }
    };

    /** The thread under each results post, as it fills and changes: its messages shortened, their pictures saved. */
    const threadSeen = new Map<string, { revisions: number; number: number }>();
    const collectThreads = (): void => {
      for (const post of posts.filter((p) => p.kind === 'results')) {
        const threadId = world.discord.message(post.messageId)?.threadId;
        if (!threadId) continue;
        const where = `#${channels.results.name} › ${world.discord.world.channels.get(threadId)?.name ?? 'thread'}`;
        for (const message of world.discord.messages(threadId)) {
          if (!message.author.bot) continue;
          const known = threadSeen.get(message.id);
          if (known && message.edits.length === known.revisions) continue;
          const entry = known ?? { revisions: 0, number: threadSeen.size + 1 };
          entry.revisions = message.edits.length;
          threadSeen.set(message.id, entry);
          write(
            `\n── [${stamp.format(clock)}] ${where} (thread), ${known ? `the bot edited its message ${entry.number}` : `message ${entry.number} from the bot`}:`,
          );
          write(indent(shortened(show(renderMessageText(message, { reader: reader() })), THREAD_LINES)));
          savePictures(`part3-thread-${entry.number}${known ? `-edit${entry.revisions}` : ''}`, message);
        }
      }
    };

    /** The server's Events tab: the scheduled events the bot made, as they come and change. */
    const eventsSeen = new Map<string, ScheduledEventView>();
    const statusWords: Record<number, string> = {
      2: 'Discord shows it as under way',
      3: 'Discord shows it as over',
      4: 'the bot cancelled it',
    };
    const hhmm = (ms: number | null): string => (ms === null ? '' : stamp.format(new Date(ms)).slice(-5));
    const eventLines = (e: ScheduledEventView): string[] => [
      `**${e.name}** · ${stamp.format(new Date(e.start))}–${hhmm(e.end)}`,
      `📍 ${show(e.location ?? '')}`,
      ...show(e.description ?? '').split('\n'),
    ];
    const collectEvents = (): void => {
      for (const e of world.discord.scheduledEvents(guildId)) {
        const known = eventsSeen.get(e.id);
        eventsSeen.set(e.id, e);
        const where = `\n── [${stamp.format(clock)}] Events tab`;
        if (!known) {
          write(`${where}, the bot added a scheduled event:`);
          write(indent(eventLines(e).join('\n')));
        } else if (known.status !== e.status) {
          write(`${where}, "${e.name}": ${statusWords[e.status] ?? `status ${e.status}`}.`);
        } else if (eventLines(known).join('\n') !== eventLines(e).join('\n')) {
          write(`${where}, the bot updated "${e.name}" ("-" gone, "+" new):`);
          write(indent(lineDiff(eventLines(known).join('\n'), eventLines(e).join('\n')).join('\n')));
        }
      }
    };

    /** Astrid's DMs from the bot (the day-before reminder), as they come and change. */
    const dmSeen = new Map<string, number>();
    const dms: Array<{ at: string; text: string }> = [];
    const collectDms = (): void => {
      for (const message of world.discord.dms(astrid)) {
        if (!message.author.bot) continue;
        const known = dmSeen.get(message.id);
        if (known !== undefined && message.edits.length === known) continue;
        dmSeen.set(message.id, message.edits.length);
        const text = show(renderMessageText(message, { reader: reader() }));
        write(
          `\n── [${stamp.format(clock)}] DM to @${astrid.username}, ${known === undefined ? 'from the bot' : 'the bot edited it'}:`,
        );
        write(indent(text));
        if (known === undefined) dms.push({ at: clock.toISOString(), text });
      }
    };

    const stepAt = (at: Date): number => {
      const date = localToday(at, ZONE);
      if (date >= raceDate) return 5 * MINUTE;
      if (date >= localToday(localAt(raceDate, -2, '12:00'), ZONE)) return 15 * MINUTE;
      return HOUR;
    };
    for (; clock.getTime() < end.getTime() && ticks < MAX_TICKS; clock = new Date(clock.getTime() + stepAt(clock))) {
      for (const happening of happenings.filter((h) => h.at.getTime() <= clock.getTime())) {
        happenings.splice(happenings.indexOf(happening), 1);
        if (happening.note !== null) write(`\n── [${stamp.format(clock)}] (sandbox) ${happening.note}`);
        await happening.act();
      }
      await world.bot.scheduler.tick(clock);
      ticks++;
      collect();
      collectThreads();
      collectDms();
      collectEvents();
    }
    write(
      `\nThe clock reached ${stamp.format(clock)} after ${ticks} scheduler ticks; ${world.eventor.requests.count()} Eventor requests in all.`,
    );

    // What the walk should have shown.
    const about = (post: SchedulerPost): boolean => post.finalText.includes(race.name);
    const mine = (kind: Kind): SchedulerPost[] => posts.filter((p) => p.kind === kind && about(p));
    if (happenings.length > 0) problems.push(`${happenings.length} sandbox changes never happened`);
    if (!mine('reminders').some((p) => p.text.includes('Log in to Eventor') && /from the club|entered/.test(p.text)))
      problems.push('no entry-deadline reminder with the club count and the login button');
    // The weekly digest comes once, on the Thursday evening of race week, and names the race among the club's starts.
    if (mine('digest').length !== 1) problems.push(`${mine('digest').length} weekly digests naming the race, not 1`);
    if (mine('startlists').length !== 1)
      problems.push(`${mine('startlists').length} start-list posts for the race, not 1`);
    const results = mine('results');
    if (results.length !== 1) problems.push(`${results.length} results posts for the race, not 1`);
    // The cup's standings: one post from the start, edited once the race's results count.
    const cups = posts.filter((p) => p.kind === 'cup-standings');
    if (cups.length !== 1) problems.push(`${cups.length} cup standings posts, not 1`);
    else if (resultsAt === null || !cups[0]!.edits.some((at) => at >= resultsAt!) || !about(cups[0]!))
      problems.push("the cup standings post was not edited to count the race's results");
    else if (results[0]!.edits.length !== 1 || corrected.at === null || results[0]!.edits[0]! < corrected.at)
      problems.push('the results post was not edited once after the correction');
    // /next named the race before the draw, and with Astrid's start time once the start list was out.
    const startsAt = stamp.format(new Date(runner.starts[0]!.startTime!)).slice(-5);
    if (!nextAnswers[0]!.includes(race.name)) problems.push('/next did not name the race Astrid entered');
    if (nextAnswers.length !== 2 || !nextAnswers[1]!.includes(startsAt))
      problems.push(`/next the evening before did not show Astrid's start time ${startsAt}`);
    const reminders = dms.filter((dm) => dm.text.includes(race.name) && dm.text.includes(startsAt));
    if (reminders.length !== 1) problems.push(`${reminders.length} day-before reminders to Astrid, not 1`);
    // The Events tab: one scheduled event per race, the moved race's moved, the cancelled one's cancelled.
    const scheduled = world.discord.scheduledEvents(guildId);
    const forRace = (ev: SandboxEvent) =>
      scheduled.filter((e) => (e.description ?? '').includes(`/Events/Show/${ev.id}`));
    for (const ev of [race, moved, cancelled])
      if (forRace(ev).length !== 1) problems.push(`${forRace(ev).length} scheduled events for ${ev.name}, not 1`);
    const movedEvent = forRace(moved)[0];
    if (movedEvent && localToday(new Date(movedEvent.start), ZONE) !== movedTo)
      problems.push(`the scheduled event of ${moved.name} did not move to ${movedTo}`);
    if (forRace(cancelled)[0]?.status !== 4)
      problems.push(`the scheduled event of ${cancelled.name} was not cancelled`);
    const texts = posts.map((p) => `${p.channel}\n${p.text}`);
    if (new Set(texts).size !== texts.length) problems.push('a post appeared twice');
    for (const kind of Object.keys(channels) as Kind[]) {
      if (world.discord.messages(channels[kind].id).length !== posts.filter((p) => p.kind === kind).length)
        problems.push(`#${channels[kind].name} holds messages the transcript did not show`);
    }
    const walked = [...posts];

    // After the weekend: the bot meets Discord's refusals. The owner deletes the results post and
    // takes the bot's Send Messages in #resultat; a second correction comes. The edit meets 10008
    // Unknown Message and the post anew 50013 Missing Permissions: the kind pauses and the admins
    // are told; with the permission back it resumes within the hour and posts the results once.
    const resultsPost = results[0];
    const second = secondCorrection(dataset, stage.full, correction.personId);
    if (resultsPost && second) {
      clock = localAt(raceDate, 2, '09:00');
      write(`\n── After the weekend: Discord refuses the bot.`);
      const board = world.discord.createTextChannel(guildId, { name: 'styrelsen' });
      names.set(board.id, 'styrelsen');
      await run(world.admin, 'setup', 'channel', { kind: 'admin', channel: board.id });
      const owner = world.discord.world.guilds.get(guildId)!.ownerId;
      world.discord.deleteMessage(resultsPost.messageId, owner);
      world.discord.setBotCanPost(channels.results.id, false);
      write(
        `\n── [${stamp.format(clock)}] (Discord) The server's owner deletes the bot's results post of ${stamp.format(new Date(resultsPost.at))} in #${channels.results.name}, and takes the bot's Send Messages there.`,
      );
      dataset.correctResult(race.id, second.personId, { time: second.to });
      write(
        `\n── [${stamp.format(clock)}] (sandbox) The organiser corrects ${second.name}'s time in ${second.className} from ${formatElapsed(second.from)} to ${formatElapsed(second.to)}.`,
      );
      const notices = (): MessageView[] => world.discord.messages(board.id).filter((m) => m.author.bot);
      const showNotices = (from: number): void => {
        for (const notice of notices().slice(from)) {
          write(`\n── [${stamp.format(clock)}] #styrelsen, from the bot:`);
          write(indent(show(renderMessageText(notice, { header: false, reader: reader() }))));
        }
      };
      /** Discord's error answers to the bot's requests in #resultat, as the transcript names them. */
      const refusals = new Map<number, string>([
        [10008, 'Unknown Message'],
        [50013, 'Missing Permissions'],
      ]);
      const until = async (done: () => boolean, hours: number): Promise<boolean> => {
        for (let n = 0; n < (hours * HOUR) / (5 * MINUTE) && !done(); n++) {
          clock = new Date(clock.getTime() + 5 * MINUTE);
          const told = notices().length;
          const asked = world.discord.requests().length;
          await world.bot.scheduler.tick(clock);
          ticks++;
          for (const r of world.discord.requests().slice(asked)) {
            if (r.code === undefined || !r.path.includes(`/channels/${channels.results.id}/`)) continue;
            const what = r.method === 'PATCH' ? 'its edit of the deleted post' : 'its post anew';
            write(
              `\n── [${stamp.format(clock)}] (Discord) answers ${what}: ${r.status}, ${r.code} ${refusals.get(r.code) ?? ''}`.trimEnd(),
            );
            met.add(r.code);
          }
          showNotices(told);
          collect();
        }
        return done();
      };
      const met = new Set<number>();
      if (!(await until(() => notices().length > 0, 2))) problems.push('the admins were not told of the refusal');
      for (const code of refusals.keys()) if (!met.has(code)) problems.push(`the bot never met Discord's ${code}`);
      world.discord.setBotCanPost(channels.results.id, true);
      write(
        `\n── [${stamp.format(clock)}] (Discord) The owner gives the bot Send Messages in #${channels.results.name} back.`,
      );
      const reposted = (): SchedulerPost[] => posts.filter((p) => p.kind === 'results' && !walked.includes(p));
      if (!(await until(() => reposted().length > 0, 2))) problems.push('the deleted results post was not posted anew');
      await until(() => false, 1);
      if (reposted().length !== 1)
        problems.push(`the deleted results post came back ${reposted().length} times, not once`);
      else if (!reposted()[0]!.text.includes(formatElapsed(second.to)))
        problems.push('the results post anew lacks the second correction');
      write(`\nThe clock reached ${stamp.format(clock)}.`);
    } else problems.push('no results post, or no second club runner to correct, for the refusals');

    if (problems.length > 0) for (const problem of problems) write(`   PROBLEM: ${problem}`);
    return {
      event: { id: race.id, name: race.name, start: race.event.start! },
      posts: walked.map(({ kind, channel, messageId, at, text, finalText, edits }) => ({
        kind,
        channel,
        messageId,
        at,
        text,
        finalText,
        edits,
      })),
      correction: corrected.what,
      correctedAt: corrected.at,
      ticks,
      problems,
    };
  } finally {
    await world.close();
  }
}
