/**
 * `npm run demo`: eventor-bot against the embedded sandboxes, no accounts needed. Part 1 tours
 * the sandbox Eventor with the client; part 2 runs the bot as its own process and members use the
 * commands; part 3 follows the automatic posts through a race weekend on a simulated clock; part 4
 * follows a race live, from LiveResultat.
 * Exits 0 only when every step got its answer and every expected post appeared.
 */
import { parseArgs } from 'node:util';
import { millisecondsInDay } from 'date-fns/constants';
import { clockFrom } from '../../src/config/sandbox-clock.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import type { Event, ResultList } from '../../src/eventor/answers.js';
import { formatElapsed } from '../../src/eventor/time.js';
import { formatBehind, formatPlace, formatStatus, personNameText } from '../../src/render/index.js';
import type { SandboxDataset } from '../sandbox/eventor/dataset.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import { type DemoStep, runBotSession } from './bot-session.js';
import { DEFAULT_PICTURES_DIR, DemoPictures } from './pictures.js';
import { runLiveSession } from './live-session.js';
import { runSchedulerSession, type SchedulerSessionResult } from './scheduler-session.js';

const TIME_ZONE = 'Europe/Stockholm';
const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const day = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

function nextDeadline(event: Event, now: number): string {
  const next = event.entryDeadlines.find((d) => Date.parse(d) > now);
  return next ? `entries close ${when.format(new Date(next))}` : 'entries closed';
}

export interface DemoOptions {
  /**
   * The instant the demo's clock starts from (default: when the demo starts). Every part's sandbox
   * data is made around it, so that an event has the same date in each part, and the bot of part 2
   * runs on the same clock (SANDBOX_CLOCK); a fixed one gives the same races whatever the day.
   */
  startsAt?: Date;
  /** Told each part's sandbox data (part 1, 2, 3) as the part starts: what a test compares. */
  onDataset?: (part: 1 | 2 | 3, dataset: SandboxDataset) => void;
  /**
   * The folder the pictures the bot attaches are written to (`--pictures <dir>`; default:
   * eventor-bot-demo-pictures in the OS's temp folder).
   */
  picturesDir?: string;
  /**
   * Told part 3's result and the lines it wrote (its own transcript, without the demo's heading
   * and summary) when it ends: a test checks the race weekend the demo played instead of playing
   * it again. The transcript written is the same with or without it.
   */
  onSchedulerSession?: (result: SchedulerSessionResult, lines: readonly string[]) => void;
}

export async function runDemo(
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  options: DemoOptions = {},
): Promise<number> {
  const startsAt = options.startsAt ?? new Date();
  const clock = clockFrom(startsAt);
  const sandbox = await startSandboxEventor({ port: 0, now: clock });
  options.onDataset?.(1, sandbox.dataset);
  const client = new EventorClient({ instance: customInstance(sandbox.baseUrl), apiKey: sandbox.apiKey });
  const steps: Array<{ title: string; ok: boolean }> = [];
  const step = async (title: string, body: () => Promise<void>): Promise<void> => {
    write(`\n== ${title}`);
    try {
      await body();
      steps.push({ title, ok: true });
    } catch (error) {
      write(`   FAILED: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      steps.push({ title, ok: false });
    }
  };
  try {
    const now = clock().getTime();
    const club = await client.organisationForApiKey();
    write(
      `eventor-bot demo\n\n=== Part 1: the Eventor client against the sandbox Eventor at ${sandbox.baseUrl}, API key of ${club.name}`,
    );

    await step('Upcoming events in the next 30 days, with entry deadlines', async () => {
      const events = await client.events({
        fromDate: new Date(now),
        toDate: new Date(now + 30 * millisecondsInDay),
        includeEntryBreaks: true,
      });
      if (events.length === 0) throw new Error('no upcoming events');
      // The events list names organisers by id only; one organisations call names them all.
      const names = new Map((await client.organisations()).map((o) => [o.id, o.shortName ?? o.name]));
      for (const event of events.slice(0, 12)) {
        const organisers = event.organisers.map((o) => o.name ?? (o.id ? (names.get(o.id) ?? o.id) : '?')).join(', ');
        write(
          `   ${event.start ? day.format(new Date(event.start)) : 'date not set'}  ${event.name}  (${event.classification}, ${organisers})  ${event.status === 'canceled' ? 'CANCELLED' : nextDeadline(event, now)}`,
        );
      }
      if (events.length > 12) write(`   … and ${events.length - 12} more`);
    });

    await step(`Entries of ${club.name} in upcoming events`, async () => {
      const entries = await client.entries({
        organisationIds: [club.id],
        fromEventDate: new Date(now),
        includeEventElement: true,
        includePersonElement: true,
      });
      if (entries.length === 0) throw new Error('the club has no entries');
      const byEvent = new Map<string, { name: string; people: string[] }>();
      for (const entry of entries) {
        const key = entry.event.id ?? '?';
        const group = byEvent.get(key) ?? {
          name: entry.event.event?.name ?? entry.event.name ?? `event ${key}`,
          people: [],
        };
        const person = entry.competitor?.person;
        group.people.push(person ? personNameText(person.name) : (entry.team?.name ?? 'unknown'));
        byEvent.set(key, group);
      }
      for (const { name, people } of [...byEvent.values()].slice(0, 6)) {
        write(
          `   ${name}: ${people.length} entered (${people.slice(0, 5).join(', ')}${people.length > 5 ? ', …' : ''})`,
        );
      }
    });

    await step(`Latest results of ${club.name}, with splits`, async () => {
      const past = await client.events({ fromDate: new Date(now - 60 * millisecondsInDay), toDate: new Date(now) });
      const candidates = past
        .filter((e) => e.status === 'completed' || e.status === 'reported')
        .sort((a, b) => (b.start ?? '').localeCompare(a.start ?? ''));
      let list: ResultList | null = null;
      for (const event of candidates.slice(0, 10)) {
        const found = await client.organisationResults({
          organisationIds: [club.id],
          eventId: event.id,
          includeSplitTimes: true,
        });
        if (found.classes.some((c) => c.persons.length > 0)) {
          list = found;
          break;
        }
      }
      if (!list) throw new Error('no recent results for the club');
      write(`   ${list.event.event?.name ?? list.event.name ?? list.event.id}`);
      let shownSplits = false;
      for (const cls of list.classes.slice(0, 4)) {
        write(`   ${cls.class.name}`);
        for (const person of cls.persons.slice(0, 4)) {
          const result = person.results[0];
          if (!result || !person.person) continue;
          const place =
            result.status === 'OK'
              ? formatPlace(result.position) || '-.'
              : formatStatus(result.status, 'en') || result.status;
          const time = result.time === null ? '' : formatElapsed(result.time);
          const behind = formatBehind(result.timeBehind);
          write(
            `     ${place.padEnd(6)} ${personNameText(person.person.name).padEnd(28)} ${time}${behind ? ` ${behind}` : ''}`,
          );
          if (!shownSplits && result.splits.length > 0) {
            shownSplits = true;
            write(
              `            splits: ${result.splits
                .slice(0, 8)
                .map((s) => `${s.controlCode} ${s.time === null ? '--' : formatElapsed(s.time)}`)
                .join(' · ')}${result.splits.length > 8 ? ' …' : ''}`,
            );
          }
        }
      }
      if (!shownSplits) throw new Error('no split times in the results');
    });
  } finally {
    await client.close();
    await sandbox.close();
  }
  const failed = steps.filter((s) => !s.ok);
  write(`\n${steps.length - failed.length} of ${steps.length} Eventor steps answered.`);

  const pictures = new DemoPictures(options.picturesDir ?? DEFAULT_PICTURES_DIR);
  write('\n\n=== Part 2: the bot in a Discord server (sandbox Discord, transcript of what members see)');
  write(`Pictures the bot attaches are written to ${pictures.dir}; the transcript names each file where it appears.`);
  const session = await runBotSession(DEMO_SESSION, write, {
    startsAt,
    pictures,
    ...(options.onDataset ? { onDataset: (dataset: SandboxDataset) => options.onDataset!(2, dataset) } : {}),
  });
  write(`\n${session.answered} of ${session.total} commands answered.`);

  write('\n\n=== Part 3: automatic posts through a race weekend (the feed scheduler on a simulated clock)');
  let scheduled = false;
  try {
    // The same data as parts 1 and 2: the race weekend followed is one of the events they showed, on its date.
    const part3Lines: string[] = [];
    const part3 = await runSchedulerSession(
      options.onSchedulerSession
        ? (line) => {
            part3Lines.push(line);
            write(line);
          }
        : write,
      {
        base: startsAt,
        pictures,
        ...(options.onDataset ? { onDataset: (dataset: SandboxDataset) => options.onDataset!(3, dataset) } : {}),
      },
    );
    options.onSchedulerSession?.(part3, part3Lines);
    const edits = part3.posts.reduce((n, p) => n + p.edits.length, 0);
    write(
      `${part3.posts.length} posts and ${edits} edit${edits === 1 ? '' : 's'} by the bot; ${part3.problems.length === 0 ? 'every expected post appeared, once' : `${part3.problems.length} problem(s)`}.`,
    );
    scheduled = part3.problems.length === 0;
  } catch (error) {
    write(`   FAILED: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  write('\n\n=== Part 4: race day, live (the live pollers on the sandbox LiveResultat, on a simulated clock)');
  let live = false;
  try {
    const part4 = await runLiveSession(write, { base: startsAt });
    write(
      `\n${part4.boards} board, edited ${part4.edits} time${part4.edits === 1 ? '' : 's'}; ${part4.finishes} finish messages; ${part4.dms} DM; ${part4.problems.length === 0 ? 'every expected post appeared, once' : `problems: ${part4.problems.join('; ')}`}.`,
    );
    live = part4.problems.length === 0;
  } catch (error) {
    write(`   FAILED: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  write(
    pictures.files.length > 0
      ? `\n${pictures.files.length} picture${pictures.files.length === 1 ? '' : 's'} written to ${pictures.dir}.`
      : '\nNo pictures were attached.',
  );
  return failed.length === 0 && session.answered === session.total && scheduled && live ? 0 : 1;
}

/**
 * The scripted session: the admin connects the server to the club's Eventor and picks a channel,
 * a member links with her Eventor account, then members run each command, in English and in Swedish
 * (the season's, and a club cup the admin defines, among them).
 */
export const DEMO_SESSION: readonly DemoStep[] = [
  {
    who: 'admin',
    locale: 'sv-SE',
    name: 'setup',
    subcommand: 'eventor',
    options: (_facts, place) => ({ base_url: place.eventorBaseUrl }),
    form: (f) => ({ key: { value: f.apiKey, secret: true } }),
  },
  {
    who: 'admin',
    locale: 'sv-SE',
    name: 'setup',
    subcommand: 'channel',
    options: (_facts, place) => ({ kind: 'results', channel: place.channelIds.resultat }),
  },
  {
    who: 'member',
    locale: 'en-GB',
    name: 'link',
    subcommand: 'eventor',
    form: (f) => ({ username: { value: f.linkedUsername }, password: { value: f.linkedPassword, secret: true } }),
  },
  { who: 'member', locale: 'en-GB', name: 'help' },
  { who: 'swedishMember', locale: 'sv-SE', name: 'help' },
  { who: 'member', locale: 'en-GB', name: 'status' },
  // The list's pages: the next page by its button, then an event's card from the menu.
  {
    who: 'member',
    locale: 'en-GB',
    name: 'events',
    options: () => ({ days: 60, level: 'all' }),
    then: [
      { click: 'Next' },
      {
        select: 'Pick an event',
        value: (f, values) => (values.includes(f.upcomingEventId) ? f.upcomingEventId : values[0]!),
      },
    ],
  },
  { who: 'swedishMember', locale: 'sv-SE', name: 'events' },
  { who: 'member', locale: 'en-GB', name: 'event', options: (f) => ({ event: f.upcomingEventId }) },
  { who: 'swedishMember', locale: 'sv-SE', name: 'event', options: (f) => ({ event: f.upcomingEventId }) },
  { who: 'member', locale: 'en-GB', name: 'entries' },
  { who: 'swedishMember', locale: 'sv-SE', name: 'entries', options: (f) => ({ event: f.upcomingEventId }) },
  { who: 'member', locale: 'en-GB', name: 'starts' },
  { who: 'swedishMember', locale: 'sv-SE', name: 'starts', options: (f) => ({ event: f.startListEventId }) },
  { who: 'member', locale: 'en-GB', name: 'results', options: () => ({ splits: true }) },
  {
    who: 'swedishMember',
    locale: 'sv-SE',
    name: 'results',
    options: (f) => ({ event: f.resultsEventId, splits: true, top: 3 }),
  },
  // Where did she lose time at that race? The graph and her lost-per-leg bars, written to the pictures folder.
  { who: 'member', locale: 'en-GB', name: 'splits', options: (f) => ({ event: f.resultsEventId }) },
  // Her year so far from Eventor's results, with its picture; the club's table, in Swedish.
  { who: 'member', locale: 'en-GB', name: 'season', subcommand: 'member' },
  { who: 'swedishMember', locale: 'sv-SE', name: 'season', subcommand: 'club' },
  // The admin defines a club cup over the year (best 5 races, place points); a member sees its standings.
  {
    who: 'admin',
    locale: 'sv-SE',
    name: 'cup',
    subcommand: 'create',
    options: () => ({ name: 'Klubbcupen', scoring: 'place', best: 5 }),
  },
  { who: 'member', locale: 'en-GB', name: 'season', subcommand: 'cup', options: () => ({ cup: 'Klubbcupen' }) },
  // Sven asks for her results by typing part of her name; Discord suggests club members as he types.
  {
    who: 'swedishMember',
    locale: 'sv-SE',
    name: 'results',
    options: (f) => ({ event: f.resultsEventId }),
    autocomplete: { option: 'member', typed: (f) => f.linkedName.slice(0, 4) },
  },
  // An event Eventor does not have, asked in public: the channel's "thinking…" goes, only he reads why.
  { who: 'swedishMember', locale: 'sv-SE', name: 'event', options: () => ({ event: '999999' }), followUp: true },
  { who: 'member', locale: 'en-GB', name: 'activities' },
  { who: 'swedishMember', locale: 'sv-SE', name: 'activity', options: (f) => ({ activity: f.activityId }) },
  { who: 'member', locale: 'en-GB', name: 'whoami' },
  { who: 'member', locale: 'en-GB', name: 'login', showDm: true },
  { who: 'member', locale: 'en-GB', name: 'card' },
  { who: 'admin', locale: 'sv-SE', name: 'setup', subcommand: 'show' },
  { who: 'admin', locale: 'sv-SE', name: 'admin', subcommand: 'audit' },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  let picturesDir: string | undefined;
  try {
    picturesDir = parseArgs({ options: { pictures: { type: 'string' } } }).values.pictures;
  } catch (error) {
    process.stderr.write(`demo: ${(error as Error).message} (option: --pictures <dir>)\n`);
    process.exit(2);
  }
  process.exitCode = await runDemo(undefined, picturesDir ? { picturesDir } : {});
}
