/**
 * `npm run soak`: the multi-process proof of exactly-once posting (docs/decisions/soak.md). Several
 * real `eventor-bot start` processes share one database (PostgreSQL, or one SQLite file) and the
 * sandboxes, which run in this process; a race weekend happens on the clock while processes are
 * SIGKILLed at random; after a quiet period the channels of each kind turned on (results, start
 * lists, reminders, the digest), the servers' Events and the members' DMs are read back and every
 * expected post must be there exactly once. The last line:
 * `SOAK processes=N kills=K expected=E present=P duplicates=D lost=L longest_wait_s=W late=T`
 * followed by `<kind>=expected/present/duplicates/lost/longest_wait_s` per kind; exit 1 unless D, L
 * and T are 0 (T: posts later than two of their kind's cadences after their news came out).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { VARIABLES } from '../../src/config/variables.js';
import { FREQUENT_MS, RARE_MS, STARTLISTS_CLOSE_MS } from '../../src/feeds/cadence.js';
import { type Postgres, startPostgres } from '../loopback/postgres.js';
import {
  renderMessageText,
  type SandboxDiscord,
  type SandboxUser,
  shardOf,
  startSandboxDiscord,
} from '../sandbox/discord/index.js';
import type { SandboxClub } from '../sandbox/eventor/dataset.js';
import { Prng } from '../sandbox/eventor/prng.js';
import { type SandboxEventor, startSandboxEventor } from '../sandbox/eventor/server.js';
import {
  countKinds,
  eventIdInText,
  type ExpectedPost,
  KIND_CADENCE_MS,
  linkedEventId,
  markerOf,
  type SeenPost,
  snowflakeTime,
  type SoakCounts,
  type SoakKind,
  soakLine,
} from './count.js';
import { Fleet } from './fleet.js';
import { digestWhen, RaceWeekend, type SoakRunner, type StagedDeadline } from './weekend.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const WAIT = { timeoutMs: 30_000 };
const READY_TIMEOUT_MS = 90_000;
/** How long after a minute's tick its runs are surely over (they take a few seconds here). */
const AFTER_TICK_MS = 45 * SECOND;
/** The kinds the soak turns on in every server, each in a channel of its own. */
const CHANNEL_KINDS = ['results', 'startlists', 'reminders', 'digest'] as const satisfies readonly SoakKind[];
type ChannelKind = (typeof CHANNEL_KINDS)[number];
/**
 * Every kind the soak counts: those, the races in the server's Events (`calendar`, turned on in
 * every server) and members' result DMs (`dms`, a member of each club linked in its servers with
 * `/notify on results`). The longest a post may take after its news came out is two of its kind's
 * production cadences (`KIND_CADENCE_MS`), however many processes are killed (a dead process's
 * clubs are taken over in time).
 */
const KINDS = [...CHANNEL_KINDS, 'calendar', 'dms'] as const satisfies readonly SoakKind[];
/** The digest's item: one a week per server, and the soak lasts less than a week. */
const DIGEST_ITEM = 'week';
/**
 * How soon after the processes start the first of their hours (reminders, and with it a 15-minute
 * slot for start lists on race days) should begin: time enough for the setup and the seeding run,
 * so that the reminders and the first wave's start lists are posted at that slot rather than up to
 * an hour later.
 */
const FIRST_SLOT_AFTER_MS = 4 * MINUTE;
/** The staged reminders fall due this long before the processes' first hour begins (after the seeding run). */
const REMINDER_DUE_BEFORE_SLOT_MS = 30 * SECOND;
/** New races per wave: with a missed 5-minute run at most, a run sees at most 4 new items (5 make a summary). */
const RACES_PER_WAVE = 2;

export interface SoakOptions {
  quick: boolean;
  processes: number;
  kills: number;
  servers: number;
  clubs: number;
  database: 'sqlite' | 'postgres';
  seed: number;
  write: (line: string) => void;
}

export interface SoakResult {
  count: SoakCounts;
  kills: number;
  line: string;
}

/** The soak's own failure (setup, a process refusing its configuration): one line, exit 2. */
class SoakError extends Error {}

/** Set by SIGINT or SIGTERM: every wait ends at once and the soak stops its processes before it exits. */
const interrupted = new AbortController();

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    if (interrupted.signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      interrupted.signal.removeEventListener('abort', done);
      resolve();
    }
    interrupted.signal.addEventListener('abort', done);
  });

/** Throws once a stop signal came, so that the soak cleans up and says so. */
function checkInterrupted(): void {
  if (interrupted.signal.aborted) throw new SoakError(`stopped by ${String(interrupted.signal.reason)}`);
}
/** The next multiple of `interval` after `at` (wall clock, as the bots' node-cron and slots are). */
const nextBoundary = (at: number, interval: number): number => (Math.floor(at / interval) + 1) * interval;
const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** `bin/eventor-bot.js` of this installation (from dist/harness/soak/ or harness/soak/). */
function programPath(): string {
  return fileURLToPath(new URL('../../../bin/eventor-bot.js', import.meta.url));
}

/**
 * Guild ids whose shard of `processes` is each process in turn, as Discord routes `(id >> 22) % N`.
 * Made a day back and with another worker id than the sandbox's own snowflakes (which are of its
 * clock's now, worker bit 17): an id the sandbox makes later (a user, a role) must never be one of
 * them, or it would replace the server's @everyone role in the sandbox's map of roles.
 */
export function guildIds(count: number, processes: number, now: number = Date.now()): string[] {
  const base = BigInt(now - 24 * 60 * MINUTE - 1_420_070_400_000);
  const out: string[] = [];
  for (let k = 0n; out.length < count && k < 100_000n; k++) {
    const id = String(((base + k) << 22n) | (1n << 18n));
    if (shardOf(id, processes) === out.length % processes) out.push(id);
  }
  return out;
}

interface Server {
  admin: SandboxUser;
  guildId: string;
  general: string;
  /** The channel of each kind that posts in one. */
  channels: Record<ChannelKind, string>;
  club: SandboxClub;
  /** When `/feeds on calendar` answered (ms): the races in Events are due from then. */
  calendarOnAt: number;
  /** The races the calendar's first run makes (`sure`), and may make (`maybe`). */
  calendar: { sure: string[]; maybe: string[] };
}

/** A member of a club's servers, linked to the club's runner, with `/notify on results` in each. */
interface Member {
  user: SandboxUser;
  runner: SoakRunner;
  /** Their DM channel (known once the bot sent the first). */
  dmChannel: string | null;
  /** The DMs sent during the setup (the welcome): not counted. */
  setupDms: Set<string>;
}

/**
 * `/setup eventor` with the club's key through the modal, then `/feeds on` for each kind, and
 * `/feeds digest` for the digest to come at `digestAt` (the processes' clock), as an admin would;
 * then the club's member, if any, links with their Eventor user name and password and turns on the
 * result DMs.
 */
async function configure(
  discord: SandboxDiscord,
  eventor: SandboxEventor,
  server: Server,
  digestAt: number,
  member: Member | null,
) {
  const admin = server.admin;
  const opener = discord.runCommand({
    guildId: server.guildId,
    channelId: server.general,
    user: admin,
    locale: 'en-GB',
    name: 'setup',
    subcommand: 'eventor',
    options: { base_url: eventor.baseUrl },
  });
  const modal = await opener.waitForModal(WAIT);
  const connected = renderMessageText(
    await discord
      .submitModal({ user: admin, locale: 'en-GB', customId: modal.custom_id, fields: { key: server.club.apiKey } })
      .reply(WAIT),
    { header: false },
  );
  if (!connected.includes(server.club.name))
    throw new SoakError(
      `/setup eventor in server ${server.guildId} did not connect: ${connected.replace(/\s+/g, ' ')}`,
    );
  // A command's reply as one line of text, as the user who typed it (in English) reads it.
  const answer = (
    user: SandboxUser,
    name: string,
    subcommand: string,
    options: Record<string, string> = {},
  ): Promise<string> =>
    discord
      .runCommand({
        guildId: server.guildId,
        channelId: server.general,
        user,
        locale: 'en-GB',
        name,
        subcommand,
        options,
      })
      .reply(WAIT)
      .then((reply) => renderMessageText(reply, { header: false }).replace(/\s+/g, ' '));
  for (const kind of CHANNEL_KINDS) {
    const on = await answer(admin, 'feeds', 'on', { kind, channel: server.channels[kind] });
    // Checked for what it says when it worked: an error's answer ("something went wrong") says neither.
    if (!/: on, posted in /.test(on) || /cannot|can't|refused|not /i.test(on))
      throw new SoakError(`/feeds on ${kind} in server ${server.guildId} was refused: ${on}`);
  }
  // Asked first without options: the answer names the server's time zone, which the day and time are in.
  const shown = await answer(admin, 'feeds', 'digest');
  const zone = / at \d\d:\d\d \(([A-Za-z_+\-/0-9]+)\)/.exec(shown)?.[1];
  if (!zone) throw new SoakError(`/feeds digest in server ${server.guildId} named no time zone: ${shown}`);
  const when = digestWhen(digestAt, zone);
  const set = await answer(admin, 'feeds', 'digest', { ...when });
  if (!set.includes(when.time))
    throw new SoakError(`/feeds digest ${when.day} ${when.time} in server ${server.guildId} was refused: ${set}`);

  const calendar = await answer(admin, 'feeds', 'on', { kind: 'calendar' });
  // "lacks": the bot's role misses Create or Manage Events, and nothing would appear.
  if (!/: on\b/.test(calendar) || /lacks|cannot|can't|refused/i.test(calendar))
    throw new SoakError(`/feeds on calendar in server ${server.guildId} was refused: ${calendar}`);
  server.calendarOnAt = Date.now();

  if (!member) return;
  const { person } = member.runner;
  const form = await discord
    .runCommand({
      guildId: server.guildId,
      channelId: server.general,
      user: member.user,
      locale: 'en-GB',
      name: 'link',
      subcommand: 'eventor',
    })
    .waitForModal(WAIT);
  const linked = renderMessageText(
    await discord
      .submitModal({
        user: member.user,
        locale: 'en-GB',
        customId: form.custom_id,
        fields: { username: person.username, password: person.password },
      })
      .reply(WAIT),
    { header: false },
  ).replace(/\s+/g, ' ');
  if (!linked.startsWith('Linked'))
    throw new SoakError(`/link eventor in server ${server.guildId} did not link ${person.person.id}: ${linked}`);
  const notify = await answer(member.user, 'notify', 'on', { what: 'results' });
  if (!notify.startsWith('Turned on') || /refused|failed|could not/i.test(notify))
    throw new SoakError(`/notify on results in server ${server.guildId} was refused: ${notify}`);
  const dms = discord.dms(member.user);
  for (const dm of dms) member.setupDms.add(dm.id);
  member.dmChannel ??= dms[0]?.channelId ?? null;
}

/**
 * The bot's messages in the servers' channels of each kind, its scheduled events in each server
 * and its DMs to the members since the setup, as the soak counts them: a kind's item is the event
 * its first embed (a scheduled event's description) links to.
 */
function seenPosts(discord: SandboxDiscord, servers: readonly Server[], members: readonly Member[]): SeenPost[] {
  const bot = discord.botUser.id;
  const events: SeenPost[] = servers.flatMap((server) =>
    discord
      .scheduledEvents(server.guildId)
      .filter((e) => e.creatorId === bot)
      .map((e) => ({
        kind: 'calendar' as const,
        id: e.id,
        channelId: server.guildId,
        eventId: eventIdInText(e.description),
        marker: null,
        edits: 0,
        ...(snowflakeTime(e.id) !== null ? { createdAt: snowflakeTime(e.id)! } : {}),
      })),
  );
  const dms: SeenPost[] = members.flatMap((member) =>
    discord
      .dms(member.user)
      .filter((m) => m.author.id === bot && !member.setupDms.has(m.id))
      .map((m) => ({
        kind: 'dms' as const,
        id: m.id,
        channelId: m.channelId,
        eventId: linkedEventId(m.embeds[0]?.url),
        marker: markerOf(m.embeds.at(-1)?.footer?.text, m.content),
        edits: m.edits.length,
        createdAt: m.createdAt,
      })),
  );
  const posts = servers.flatMap((server) =>
    CHANNEL_KINDS.flatMap((kind) =>
      discord
        .messages(server.channels[kind])
        .filter((m) => m.author.id === bot && m.threadId === null)
        .map((m) => ({
          kind,
          id: m.id,
          channelId: m.channelId,
          // Every message in the digest channel is the week's digest: a second one is a duplicate.
          eventId: kind === 'digest' ? DIGEST_ITEM : linkedEventId(m.embeds[0]?.url),
          marker: markerOf(m.embeds.at(-1)?.footer?.text, m.embeds.at(-1)?.title, m.content),
          edits: m.edits.length,
          createdAt: m.createdAt,
        })),
    ),
  );
  return [...posts, ...events, ...dms];
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { write } = options;
  const random = Prng.derive(options.seed, 'soak');
  const started = Date.now();
  const elapsed = (): string => {
    const s = Math.round((Date.now() - started) / SECOND);
    return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };
  const say = (line: string): void => write(`[${elapsed()}] ${line}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-soak-'));
  let keep = false;
  let discord: SandboxDiscord | null = null;
  let eventor: SandboxEventor | null = null;
  let postgres: Postgres | null = null;
  let fleet: Fleet | null = null;
  try {
    eventor = await startSandboxEventor({ port: 0, seed: options.seed });
    discord = await startSandboxDiscord({ port: 0 });
    const weekend = new RaceWeekend(eventor.dataset, options.clubs, Date.now());
    if (weekend.clubs.length < options.clubs || weekend.waiting < RACES_PER_WAVE)
      throw new SoakError(`the sandbox (seed ${options.seed}) has too few races with club results; try another --seed`);

    const database: NodeJS.ProcessEnv = {};
    if (options.database === 'postgres') {
      if (process.env.DATABASE_URL) database.DATABASE_URL = process.env.DATABASE_URL;
      else {
        postgres = await startPostgres();
        database.DATABASE_URL = postgres.url;
      }
    } else database.DATABASE_PATH = path.join(dir, 'eventor-bot.sqlite');

    const servers: Server[] = guildIds(options.servers, options.processes).map((guildId, i) => {
      // An admin each: one member's commands in quick succession meet the per-member budget.
      const admin = discord!.createUser({ username: `soak-admin-${i + 1}`, locale: 'en-GB' });
      discord!.createGuild({ id: guildId, name: `Klubbserver ${i + 1}`, owner: admin });
      // What docs/admins.md asks admins to give the bot's role for the races in Events.
      discord!.setBotCanCreateEvents(guildId, true);
      discord!.setBotCanManageEvents(guildId, true);
      return {
        admin,
        guildId,
        general: discord!.createTextChannel(guildId, { name: 'general' }).id,
        channels: {
          results: discord!.createTextChannel(guildId, { name: 'resultat' }).id,
          startlists: discord!.createTextChannel(guildId, { name: 'startlistor' }).id,
          reminders: discord!.createTextChannel(guildId, { name: 'anmälan' }).id,
          digest: discord!.createTextChannel(guildId, { name: 'veckan' }).id,
        },
        club: weekend.clubs[i % weekend.clubs.length]!,
        calendarOnAt: 0,
        calendar: { sure: [], maybe: [] },
      };
    });
    // A member of each club with a result to come, in every server of the club: each DM once, not once per server.
    const members: Member[] = weekend.runners().map((runner, i) => ({
      user: discord!.createUser({ username: `soak-member-${i + 1}`, locale: 'en-GB' }),
      runner,
      dmChannel: null,
      setupDms: new Set<string>(),
    }));
    const memberOf = (server: Server): Member | null => members.find((m) => m.runner.clubId === server.club.id) ?? null;
    for (const server of servers) {
      const member = memberOf(server);
      if (member) discord.addMember(server.guildId, member.user);
    }
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS });

    // The processes' clock runs ahead by a multiple of 5 minutes (so their minutes and 5-minute
    // slots are the machine's), chosen so that one of their hours (and so a 15-minute slot) begins
    // soon after the first wave: the reminders' and the start lists' production cadences, without
    // waiting up to an hour for them.
    const firstSlot = nextBoundary(Date.now() + FIRST_SLOT_AFTER_MS, FREQUENT_MS);
    const clockOffsetMs = (RARE_MS - (firstSlot % RARE_MS)) % RARE_MS;
    // Each club's reminder falls due just before that hour, after the feeds' first run.
    const deadlines: StagedDeadline[] = weekend.stageDeadlines(
      firstSlot + clockOffsetMs - REMINDER_DUE_BEFORE_SLOT_MS + DAY,
      clockOffsetMs,
      Date.now(),
    );
    /** The first instant (machine clock) at or after `at` that begins one of the processes' slots of `interval`. */
    const botBoundary = (at: number, interval: number): number =>
      Math.ceil((at + clockOffsetMs) / interval) * interval - clockOffsetMs;
    fleet = new Fleet({
      program: programPath(),
      dir,
      processes: options.processes,
      clockOffsetMs,
      env: {
        PATH: process.env.PATH,
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.restUrl,
        EVENTOR_CUSTOM_URLS: eventor.baseUrl,
        SECRET_KEY: randomBytes(24).toString('base64url'),
        SHARD_COUNT: String(options.processes),
        LOG_LEVEL: 'info',
        ...database,
      },
    });
    const where = options.database === 'postgres' ? 'PostgreSQL' : 'one SQLite file';
    say(
      `${options.processes} processes on ${where}, ${servers.length} servers of ${weekend.clubs.length} clubs, ` +
        `${weekend.waiting} races to publish, ${deadlines.length} reminders staged, ${members.length} members ` +
        `for DMs, ${options.kills} kills to make; the processes' clock ${clockOffsetMs / MINUTE} minutes ahead; ` +
        `logs in ${dir}`,
    );
    await fleet.startAll(READY_TIMEOUT_MS);
    say('every process is ready; setting the servers up with /setup eventor and /feeds on');
    // The digest is set to come at the processes' first hour, after the feeds' first run.
    for (const server of servers) {
      // What the calendar's first run should make, from the data as it stands when it is turned on.
      server.calendar = weekend.calendarEvents(server.club.id, Date.now());
      await configure(discord, eventor, server, firstSlot + clockOffsetMs, memberOf(server));
    }
    const silentMember = members.find((m) => m.dmChannel === null);
    if (silentMember) throw new SoakError(`/notify on sent ${silentMember.user.username} no welcome DM`);

    // The feeds' first run records what exists and posts nothing: it must be over before a wave.
    const seedTick = nextBoundary(Date.now(), MINUTE);
    // A first run at the digest's time would record that week's digest instead of posting it (and
    // one after the reminders fell due, their reminder).
    if (seedTick >= firstSlot - REMINDER_DUE_BEFORE_SLOT_MS)
      throw new SoakError(
        `the setup took until ${clock(Date.now())} UTC, past the digest's time ${clock(firstSlot)}: the machine is too busy`,
      );
    // A kill while the first runs are under way (the calendar making every race in Events among
    // them), when the next minute's runs, which finish what it stopped, still come before the
    // reminders fall due.
    const killFirstRuns = options.kills > 0 && seedTick + MINUTE < firstSlot - REMINDER_DUE_BEFORE_SLOT_MS;
    const seeded = seedTick + (killFirstRuns ? MINUTE : 0) + AFTER_TICK_MS;
    say(`waiting for the feeds' first run (seeding) at ${clock(seedTick)} UTC`);
    if (killFirstRuns) {
      await sleep(seedTick + 1_500 + random.next() * 2_500 - Date.now());
      checkInterrupted();
      const inEvents = (): number =>
        servers.reduce(
          (sum, s) =>
            sum + discord!.scheduledEvents(s.guildId).filter((e) => e.creatorId === discord!.botUser.id).length,
          0,
        );
      const made = inEvents();
      fleet.killOne(() => random.next());
      say(
        `a kill during the first runs, with ${made} of ${servers.reduce((sum, s) => sum + s.calendar.sure.length, 0)} ` +
          `races in Events made; their runs are finished at ${clock(seedTick + MINUTE)} UTC`,
      );
    }
    await sleep(seeded - Date.now());
    checkInterrupted();
    const asked = new Set(
      eventor.requests
        .filter((r) => r.path.toLowerCase() === '/api/results/organisation')
        .map((r) => r.query.organisationIds),
    );
    const silent = weekend.clubs.filter((club) => !asked.has(club.id));
    if (silent.length > 0)
      throw new SoakError(`no results feed ran for club ${silent.map((c) => c.id).join(', ')} by ${clock(seeded)}`);

    // The race weekend: a wave now, then one in the middle of every later 5-minute slot, while the
    // processes are killed. Quick: one wave and the 5-minute slot that posts it.
    const waves = options.quick ? 1 : Math.ceil(weekend.waiting / RACES_PER_WAVE);
    let wavesDone = 0;
    let nextWave = Date.now();
    let lastWaveAt = 0;
    // The start lists of the first wave's races come out with it, and only those: every later
    // 15-minute run would meet more than 5 new ones and post a summary.
    const startLists = weekend.publishStartLists(RACES_PER_WAVE, Date.now());
    // Posted at the processes' first 15-minute slot after them (their clock is ahead, see above).
    const startListsDue = botBoundary(Date.now() + 1, STARTLISTS_CLOSE_MS) + AFTER_TICK_MS;
    say(
      `start lists out for ${startLists.join(', ')}; their slot begins at ${clock(startListsDue - AFTER_TICK_MS)} UTC`,
    );
    // When the last wave's slot and the start lists' slot will have run: the kills are spread until then.
    // The digest of every server falls due at the first slot (see configure), and the reminders' hourly run is then.
    const digestDue = firstSlot + AFTER_TICK_MS;
    const plannedEnd = Math.max(
      nextBoundary(Date.now() + (waves - 1) * FREQUENT_MS + (waves > 1 ? FREQUENT_MS / 2 : 0), FREQUENT_MS) +
        AFTER_TICK_MS,
      startListsDue,
      digestDue,
    );
    const deadline = plannedEnd + (options.quick ? 10 : 60) * MINUTE;
    /**
     * The pause before the next kill: the kills left spread over the time left, at least 1.5 s apart;
     * past the planned end (posts still missing), one every 10 to 40 s: a process started again
     * runs at the next minute's tick, and a kill after every tick would stop every run.
     */
    const killGap = (now: number): number => {
      if (now >= plannedEnd) return 10 * SECOND + random.next() * 30 * SECOND;
      const left = Math.max(1, options.kills - fleet!.kills);
      return Math.max(1.5 * SECOND, ((plannedEnd - now) / (left + 1)) * (0.5 + random.next()));
    };
    let nextKill = Date.now() + killGap(Date.now());
    let nextProgress = Date.now() + 30 * SECOND;
    const served = (kind: ChannelKind) => servers.map((s) => ({ clubId: s.club.id, channelId: s.channels[kind] }));
    const expectedElse = (): ExpectedPost[] => [
      // Each staged reminder in the servers of its club, once due.
      ...deadlines
        .filter((d) => Date.now() >= d.dueAt)
        .flatMap((d) =>
          servers
            .filter((s) => d.clubIds.includes(s.club.id))
            .map((s) => ({
              kind: 'reminders' as const,
              channelId: s.channels.reminders,
              eventId: d.eventId,
              publishedAt: d.dueAt,
            })),
        ),
      // The races in each server's Events, from when the calendar was turned on.
      ...servers.flatMap((s) => [
        ...s.calendar.sure.map((eventId) => ({
          kind: 'calendar' as const,
          channelId: s.guildId,
          eventId,
          publishedAt: s.calendarOnAt,
        })),
        ...s.calendar.maybe.map((eventId) => ({
          kind: 'calendar' as const,
          channelId: s.guildId,
          eventId,
          optional: true,
        })),
      ]),
      ...weekend.expectedResultDms(
        members.map((m) => ({ personId: m.runner.person.person.id!, channelId: m.dmChannel! })),
      ),
    ];
    const counted = (): SoakCounts =>
      countKinds(
        KINDS,
        [
          ...weekend.expected(served('results')).map((post) => ({ ...post, kind: 'results' as const })),
          ...weekend.expectedStartLists(served('startlists')),
          // Each server's digest, once its time came (it shows whatever the week holds).
          ...(Date.now() >= firstSlot
            ? servers.map((s) => ({
                kind: 'digest' as const,
                channelId: s.channels.digest,
                eventId: DIGEST_ITEM,
                publishedAt: firstSlot,
              }))
            : []),
          ...expectedElse(),
        ],
        seenPosts(discord!, servers, members),
        { now: Date.now() },
      );
    const progress = (): void => {
      const count = counted().total;
      say(
        `kills ${fleet!.kills}, processes ready ${fleet!.ready}/${fleet!.size}, races out ${weekend.published}, ` +
          `posts expected ${count.expected}, present ${count.present}, edits ${count.edits}`,
      );
    };
    for (let step = 0; step < 1_000_000; step++) {
      const now = Date.now();
      checkInterrupted();
      if (fleet.refused !== null) throw new SoakError(fleet.refused);
      if (wavesDone < waves && now >= nextWave) {
        const names = weekend.wave(RACES_PER_WAVE, () => random.next(), now);
        wavesDone += 1;
        lastWaveAt = now;
        say(`wave ${wavesDone}: results out for ${names.join(', ')} (corrections so far ${weekend.corrections})`);
        nextWave = nextBoundary(now, FREQUENT_MS) + FREQUENT_MS / 2;
      }
      // Done once every kill is made, every wave is out, a 5-minute slot has run after the last and
      // its posts are out: kills go on while they are made (a kill just after a tick can stop a run,
      // which the next minute's tick runs again), so that kills land while posts are being made.
      const posted =
        wavesDone === waves &&
        now >= nextBoundary(lastWaveAt, FREQUENT_MS) + AFTER_TICK_MS &&
        now >= startListsDue &&
        now >= digestDue &&
        deadlines.every((d) => now >= d.dueAt) &&
        (counted().total.lost === 0 || now >= plannedEnd + 5 * FREQUENT_MS);
      if ((fleet.kills >= options.kills && posted) || now >= deadline) break;
      if (now >= nextKill && (fleet.kills < options.kills || !posted)) {
        fleet.killOne(() => random.next());
        const gap = killGap(now);
        // Half the kills land just after a minute's tick, while runs are posting, when that is near.
        const tick = nextBoundary(now, MINUTE) + 300 + random.next() * 4 * SECOND;
        nextKill = random.next() < 0.5 && tick - now < 2 * gap && now < plannedEnd ? tick : now + gap;
      }
      if (now >= nextProgress) {
        progress();
        nextProgress = now + 30 * SECOND;
      }
      await sleep(Math.min(nextKill, nextWave, nextProgress, now + SECOND) - Date.now());
    }
    if (fleet.kills < options.kills) say(`the soak's time ran out after ${fleet.kills} of ${options.kills} kills`);

    // Quiet: no kills; every process up; then the runs of a whole slot (or a minute) with nothing new.
    if (!(await fleet.allReady(READY_TIMEOUT_MS))) throw new SoakError('not every process came back after the kills');
    // A run cut short by a kill is run again at the next minute's tick; the full soak also waits for
    // the next 5-minute slot's runs, so that a late duplicate would show too.
    const quietUntil = options.quick
      ? nextBoundary(Date.now(), MINUTE) + AFTER_TICK_MS
      : nextBoundary(Date.now(), FREQUENT_MS) + AFTER_TICK_MS;
    say(`kills over; settling until ${clock(quietUntil)} UTC with every process up`);
    for (let i = 0; i < 100 && Date.now() < quietUntil; i++) {
      await sleep(Math.min(30 * SECOND, quietUntil - Date.now()));
      checkInterrupted();
      if (Date.now() < quietUntil) progress();
    }

    const counts = counted();
    const count = counts.total;
    const kills = fleet.kills;
    write('');
    write(`processes: ${options.processes} (${where}), servers ${servers.length}, clubs ${weekend.clubs.length}`);
    write(`kills: ${kills} (per process ${fleet.killsPerProcess.join(', ')}); crashes besides: ${fleet.crashes}`);
    write(
      `races published: ${weekend.published} in ${wavesDone} waves; corrections: ${weekend.corrections}; ` +
        `start lists published: ${weekend.startLists}; reminders staged: ${deadlines.length}; ` +
        `members with result DMs on: ${members.length}`,
    );
    write(`expected posts: ${count.expected}`);
    write(`posts present: ${count.present}`);
    write(`duplicates: ${count.duplicates}`);
    write(`lost: ${count.lost}`);
    write(`unexpected posts: ${count.unexpected}`);
    write(`edits seen: ${count.edits}`);
    for (const kind of KINDS) {
      const k = counts.kinds[kind]!;
      write(
        `${kind}: expected ${k.expected}, present ${k.present}, duplicates ${k.duplicates}, lost ${k.lost}, ` +
          `unexpected ${k.unexpected}; longest wait from publication to post ${Math.round(k.longestWaitMs / SECOND)} s ` +
          `(limit ${(2 * KIND_CADENCE_MS[kind]) / SECOND} s, two of its cadences); late: ${k.late}`,
      );
    }
    for (const problem of count.problems) write(`  ${problem}`);
    keep = count.duplicates + count.lost + count.unexpected + count.late > 0 || fleet.crashes > 0;
    if (keep) write(`the processes' logs are kept in ${dir}`);
    const line = soakLine(options.processes, kills, counts);
    return { count: counts, kills, line };
  } catch (error) {
    keep = true;
    if (error instanceof SoakError) throw error;
    throw new SoakError(`${(error as Error).message} (logs in ${dir})`);
  } finally {
    await fleet?.stop();
    await discord?.close();
    await eventor?.close();
    await postgres?.stop();
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

function usage(message: string): never {
  process.stderr.write(
    `soak: ${message}\nusage: npm run soak -- [--quick] [--processes N] [--kills K] [--servers S] [--clubs C] ` +
      `[--database postgres|sqlite] [--seed N]\n`,
  );
  process.exit(2);
}

function wholeNumber(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    usage(`--${name} must be a whole number from ${min} to ${max}`);
  return Number(raw);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        processes: { type: 'string' },
        kills: { type: 'string' },
        servers: { type: 'string' },
        clubs: { type: 'string' },
        database: { type: 'string' },
        seed: { type: 'string' },
      },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  const quick = values.quick === true;
  // PostgreSQL once `start` reads DATABASE_URL; until then the processes share one SQLite file.
  const postgresReady = (VARIABLES as readonly string[]).includes('DATABASE_URL');
  const database = (values.database as string | undefined) ?? (postgresReady ? 'postgres' : 'sqlite');
  if (database !== 'postgres' && database !== 'sqlite') usage('--database must be postgres or sqlite');
  if (database === 'postgres' && !postgresReady)
    usage('this build of eventor-bot does not read DATABASE_URL yet: use --database sqlite');
  const processes = wholeNumber(values.processes as string | undefined, 'processes', quick ? 2 : 3, 2, 8);
  const options: SoakOptions = {
    quick,
    processes,
    kills: wholeNumber(values.kills as string | undefined, 'kills', quick ? 10 : 300, 0, 5000),
    servers: wholeNumber(values.servers as string | undefined, 'servers', 12, processes, 60),
    clubs: wholeNumber(values.clubs as string | undefined, 'clubs', 6, 1, 12),
    database,
    seed: wholeNumber(values.seed as string | undefined, 'seed', 1, 1, 9999),
    write: (line) => process.stdout.write(`${line}\n`),
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => interrupted.abort(signal));
  try {
    const result = await runSoak(options);
    process.stdout.write(`${result.line}\n`);
    const { duplicates, lost, unexpected, late } = result.count.total;
    process.exitCode = duplicates + lost + unexpected + late > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`soak: ${(error as Error).message}\n`);
    process.exitCode = 2;
  }
}
