/**
 * The live pollers (docs/live-results.md#race-day-in-discord, docs/decisions/live-pollers.md): one
 * per live competition for every server and process that follows it. Every few seconds a turn reads
 * which races follow which competition (`live_races`, written by the matching run), and for each
 * competition this process holds the lease of (`live:<id>`, as the feeds' club leases), it asks
 * LiveResultat when the competition's tier says so (`tiers.ts`: hot 15 s while club runners are out,
 * warm 60 s, 10 minutes before the first start and after the last finish, never below 10 s per
 * path; stopped at the end of the day or once every board is final; 30 s doubling to 10 minutes
 * after failures), through one tracker for all the clubs that follow it (conditional reads: an
 * unchanged class costs a 304). Then each following server's board (one message per race, in the
 * race's thread when the results kind keeps threads, else in the kind's channel) is edited
 * when what it shows changed, at most once per BOARD_EDIT_MIN_MS, its finish messages posted, and
 * the DMs of members whose own linked person finished sent, all exactly once through the ledger and
 * poster (docs/decisions/exactly-once-ledger.md). What it read is kept for every process
 * (`live_snapshots`: `/live` answers from it).
 *
 * A board turns final when the server's results post of the race is out (the matching run links
 * it), when every club runner is home and nothing changed for STILL_FOR_FINAL_MS (or nothing at all
 * for QUIET_FOR_FINAL_MS, someone never home), or when the day ends. LiveResultat failing is told to each server's admins once, never again; the board says it
 * shows the last state read.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Client } from 'discord.js';
import { type Language, languageFor, serverLanguage, t } from '../../../i18n/index.js';
import { FINAL_STATUSES } from '../../../live/changes.js';
import { clubAliases, crossCheck, runnerOfPerson } from '../../../live/clubs.js';
import { LiveError } from '../../../live/errors.js';
import type { LiveRunner } from '../../../live/model.js';
import { failureBackoffMs, pollTier } from '../../../live/tiers.js';
import { CompetitionTracker } from '../../../live/tracker.js';
import type { Logger } from '../../../log/logger.js';
import { TimeSlices } from '../../../loop/slices.js';
import { escapeName, type RenderContext, renderLiveBoard, renderLiveFinishDm } from '../../../render/index.js';
import type { GuildSettings, LiveRaceRow, Store } from '../../../store/interfaces.js';
import { addDays, queryDay } from '../../../time/days.js';
import { localDate } from '../../cadence.js';
import { contentHash, ledgerKey } from '../../delivery/keys.js';
import { type ItemRef, Ledger, ownerMayBeAlive } from '../../delivery/ledger.js';
import { discordTarget, Poster, type PostOutcome, type PostTarget } from '../../delivery/poster.js';
import { withRoleMention } from '../../delivery/publish.js';
import type { FeedSettings, MembershipCheck } from '../../feed.js';
import type { FeedKind } from '../../kind.js';
import { openDmChannel } from '../personal/personal.js';
import type { ResultsOptions } from '../results/options.js';
import { RESULTS_FEED } from '../results/results.js';
import { openRaceThread, raceThreadId, threadName } from '../results/threads.js';
import { AdminNotices } from '../../notices.js';
import { Pauses } from '../../pauses.js';
import { KINDS } from '../../registry.js';
import { KindSettings } from '../../settings.js';
import { personalFeed, Subscriptions } from '../../subscriptions.js';
import type { LiveAccess } from './access.js';
import { allHome, boardHash, finishItems, type LiveSnapshot, readSnapshot, runnersOf, secondsAt } from './board.js';
import { firstBoardMoved, firstLiveDown, resultsKey } from './matching.js';
import type { LiveOptions } from './options.js';
import { boardKey, entriesOf, LIVE_FEED, type LiveRaceRecord, raceTitle, readRaceRecord } from './race.js';

/** How often a turn looks at what is due (each competition keeps its own tier's interval). */
export const TURN_MS = 5_000;
/** How long a turn works before the event loop gets its turn (one server's board is ~0.1 ms). */
const TURN_SLICE_MS = 1;
/** A board is edited at most this often: at most four edits a minute, well within Discord's limits per channel. */
export const BOARD_EDIT_MIN_MS = 15_000;
/** Every club runner home and nothing changed for this long: the competition has stopped changing. */
export const STILL_FOR_FINAL_MS = 30 * 60_000;
/**
 * Nothing changed for this long, though some runner never came home (a non-starter never marked DNS,
 * a row stuck "not started"): the competition has stopped changing all the same.
 */
export const QUIET_FOR_FINAL_MS = 2 * 60 * 60_000;
/** A finish older than this when first seen (a restart, the kind turned on mid-race) is recorded, not posted. */
export const FINISH_NEWS_MS = 10 * 60_000;
/** The competition lease's time to live, and how often it is renewed. */
export const LIVE_LEASE_TTL_MS = 3 * 60_000;
const LEASE_RENEW_MS = 60_000;
/** Even unchanged, the snapshot is written this often, so `/live` in another process says when it was read. */
const SNAPSHOT_EVERY_MS = 60_000;
/** How many days back the live races and snapshots are kept (SECURITY.md). */
export const LIVE_KEEP_DAYS = 7;

export interface LivePollerOptions {
  store: Store;
  live: LiveAccess;
  /** The Discord client: admins' notices, members' DM channels, server names and languages. */
  client: Client;
  log: Logger;
  now?: () => Date;
  /** Where posts go (default the real Discord through the client). */
  target?: PostTarget;
  membership?: MembershipCheck;
  defaultLanguage: Language;
  defaultTimeZone: string;
  /** The kinds there are (the registry's, or a test's): the live kind's settings are read with them. */
  kinds?: readonly FeedKind[];
  leaseTtlMs?: number;
  /** For the bench and tests: how long a board waits between edits (default BOARD_EDIT_MIN_MS). */
  boardEditMinMs?: number;
  /**
   * Work a turn gives way to between two steps (null: none now): the members' first answers
   * (`FirstAnswers.unsent`), so that a turn editing a hundred boards never delays an acknowledgement.
   */
  yieldTo?: () => Promise<void> | null;
}

/** What one turn did, for tests and the bench. */
export interface LiveTurn {
  /** Competitions asked of LiveResultat this turn. */
  polled: number[];
  posts: number;
  edits: number;
  dms: number;
  failed: number;
}

/** One following server's race. */
interface Follower {
  row: LiveRaceRow;
  record: LiveRaceRecord;
  settings: FeedSettings<LiveOptions>;
  guild: GuildSettings | null;
  language: Language;
  timeZone: string;
}

/** One competition this process follows. */
interface Follow {
  id: number;
  tracker: CompetitionTracker | null;
  /** The clubs' names the tracker was made for: a new club following makes a new one. */
  namesKey: string;
  read: { competition: LiveSnapshot['competition']; runners: LiveRunner[] } | null;
  readAt: Date | null;
  lastChangeAt: number | null;
  /** When the runners read last changed from one read to the next, in this process (the tier's "a change a moment ago"). */
  changedAt: number | null;
  nextPollAt: number;
  failures: number;
  failing: boolean;
  /** Nothing more to ask today (the day is over, every board is final, or the competition is gone). */
  stopped: boolean;
  leaseAt: number | null;
  snapshotAt: number | null;
  /** The stored snapshot was looked at (once, when this process took the competition). */
  resumed: boolean;
  /** What each board, finish message and DM last showed (by ledger feed and key), and when the board was last edited. */
  shown: Map<string, { hash: string; at: number }>;
}

export class LivePoller {
  readonly #options: LivePollerOptions;
  readonly #now: () => Date;
  readonly #ledger: Ledger;
  readonly #target: PostTarget;
  readonly #settings: KindSettings;
  readonly #notices: AdminNotices;
  readonly #pauses: Pauses;
  readonly #subscriptions: Subscriptions;
  readonly #follows = new Map<number, Follow>();
  readonly #owner = `${hostname().replaceAll(':', '_')}:${process.pid}:${randomBytes(6).toString('hex')}`;
  #timer: NodeJS.Timeout | null = null;
  #turning: Promise<LiveTurn> | null = null;
  #stopped = false;
  #prunedDay: string | null = null;
  /** Each race's record as last read, by server and race: parsed again only when its text changed. */
  readonly #records = new Map<string, { text: string; record: LiveRaceRecord }>();

  constructor(options: LivePollerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#ledger = new Ledger(options.store);
    this.#target = options.target ?? discordTarget(options.client);
    this.#settings = new KindSettings(options.store, this.#now, options.kinds ?? KINDS);
    this.#notices = new AdminNotices(options.client, options.store, options.log);
    this.#pauses = new Pauses(this.#settings, this.#notices, options.client, options.log);
    this.#subscriptions = new Subscriptions(options.store);
  }

  /** Starts the turns; a turn still running when the next is due is not doubled. */
  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => {
      if (this.#turning) return;
      void this.turn().catch((error: unknown) => this.#options.log.error('live poller turn failed', { error }));
    }, TURN_MS);
    this.#timer.unref();
  }

  /** Stops the turns, waits for the one in flight and gives back this process's leases (another takes over at once). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#turning?.catch(() => undefined);
    for (const id of this.#follows.keys()) await this.#options.store.leases.release(leaseName(id), this.#owner);
    this.#follows.clear();
  }

  /** One turn at `now`: every competition due is asked, and every board, finish and DM that changed goes out. */
  turn(now: Date = this.#now()): Promise<LiveTurn> {
    const turn = this.#turn(now).finally(() => {
      if (this.#turning === turn) this.#turning = null;
    });
    this.#turning = turn;
    return turn;
  }

  async #turn(now: Date): Promise<LiveTurn> {
    const done: LiveTurn = { polled: [], posts: 0, edits: 0, dms: 0, failed: 0 };
    if (this.#stopped) return done;
    // The store answers synchronously behind its promises: without giving way, a turn over a hundred
    // servers would hold every member's interaction until it ends (docs/benchmarks.md). Short slices:
    // an interaction's answer takes several turns of the loop (gateway, handler, REST), one slice each.
    // Every read of the store is a step of its own: a hundred servers' rows take a slice or more.
    const slices = new TimeSlices(TURN_SLICE_MS, undefined, this.#options.yieldTo);
    // Whatever the loop has waiting goes first (an interaction come at this very moment), then the turn.
    await slices.giveWay(true);
    await this.#prune(now);
    await slices.giveWay();
    // Every zone's today lies within a day of UTC's.
    const day = queryDay(now);
    const rows = await this.#options.store.live.followed(addDays(day, -1), addDays(day, 1));
    await slices.giveWay();
    const byCompetition = new Map<number, LiveRaceRow[]>();
    for (const row of rows) {
      const list = byCompetition.get(row.competitionId!) ?? [];
      list.push(row);
      byCompetition.set(row.competitionId!, list);
    }
    const departed = new Set((await this.#options.store.departures.guildDepartures()).map((d) => d.guildId));
    await slices.giveWay();
    const servers = new Map<string, Promise<{ guild: GuildSettings | null; settings: FeedSettings<LiveOptions> }>>();
    const serverOf = (guildId: string) => {
      let known = servers.get(guildId);
      if (!known) {
        known = (async () => ({
          guild: await this.#options.store.servers.guildSettings(guildId),
          settings: await this.#settings.get<LiveOptions>(guildId, LIVE_FEED),
        }))();
        servers.set(guildId, known);
      }
      return known;
    };
    for (const [id, list] of byCompetition) {
      if (this.#stopped) break;
      const followers: Follower[] = [];
      for (const row of list) {
        await slices.giveWay();
        if (departed.has(row.guildId)) continue;
        const { guild, settings } = await serverOf(row.guildId);
        if (!settings.enabled || settings.pausedReason !== null || settings.channelId === null) continue;
        const timeZone = guild?.timeZone ?? this.#options.defaultTimeZone;
        // Races of the server's today; yesterday's only until its board is final (the day's end says so).
        const today = localDate(now, timeZone);
        if (row.raceDay !== today && !(row.raceDay === addDays(today, -1) && row.finalAt === null)) continue;
        followers.push({
          row,
          record: this.#record(row),
          settings,
          guild,
          timeZone,
          language: serverLanguage(
            guild?.locale,
            this.#options.client.guilds.cache.get(row.guildId)?.preferredLocale,
            this.#options.defaultLanguage,
          ),
        });
      }
      if (followers.length === 0) {
        await this.#forget(id);
        continue;
      }
      // Another process follows it (its requests are made once, there).
      if (!(await this.#lease(id, now))) {
        this.#follows.delete(id);
        continue;
      }
      const follow = this.#follow(id);
      try {
        // Taken over from another process (or after a restart): its last read, until this one reads.
        if (follow.read === null && !follow.resumed) await this.#resume(follow);
        if (!follow.stopped && now.getTime() >= follow.nextPollAt && followers.some((f) => f.row.finalAt === null)) {
          done.polled.push(id);
          await this.#poll(follow, followers, now);
        }
        await this.#show(follow, followers, now, done, slices);
      } catch (error) {
        done.failed += 1;
        this.#options.log.error('live competition turn failed', { competitionId: id, error });
      }
    }
    for (const id of [...this.#follows.keys()]) if (!byCompetition.has(id)) await this.#forget(id);
    return done;
  }

  /** The race's record (`live_races.race`): the same text every turn, so read once while it stays the same. */
  #record(row: LiveRaceRow): LiveRaceRecord {
    const key = `${row.guildId}|${row.eventId}|${row.raceId}`;
    const known = this.#records.get(key);
    if (known?.text === row.race) return known.record;
    const record = readRaceRecord(row.race);
    this.#records.set(key, { text: row.race, record });
    return record;
  }

  #follow(id: number): Follow {
    let follow = this.#follows.get(id);
    if (!follow) {
      follow = {
        id,
        tracker: null,
        namesKey: '',
        read: null,
        readAt: null,
        lastChangeAt: null,
        changedAt: null,
        nextPollAt: 0,
        failures: 0,
        failing: false,
        stopped: false,
        leaseAt: null,
        snapshotAt: null,
        resumed: false,
        shown: new Map(),
      };
      this.#follows.set(id, follow);
    }
    return follow;
  }

  /** What the last poll of the competition read, by whichever process made it (`live_snapshots`). */
  async #resume(follow: Follow): Promise<void> {
    follow.resumed = true;
    const stored = await this.#options.store.live.snapshot(follow.id);
    const snapshot = readSnapshot(stored?.state);
    if (stored === null || snapshot === null) return;
    follow.read = { competition: snapshot.competition, runners: snapshot.runners };
    follow.readAt = new Date(stored.readAt);
    follow.lastChangeAt = stored.changedAt === null ? null : Date.parse(stored.changedAt);
    follow.failing = snapshot.failing;
  }

  async #forget(id: number): Promise<void> {
    if (!this.#follows.delete(id)) return;
    await this.#options.store.leases.release(leaseName(id), this.#owner);
  }

  /** Takes or renews the competition's lease (renewed once a minute); one of a dead process of this host is taken at once. */
  async #lease(id: number, now: Date): Promise<boolean> {
    const known = this.#follows.get(id);
    if (known?.leaseAt != null && now.getTime() - known.leaseAt < LEASE_RENEW_MS) return true;
    const leases = this.#options.store.leases;
    const ttl = this.#options.leaseTtlMs ?? LIVE_LEASE_TTL_MS;
    let held = await leases.acquire(leaseName(id), this.#owner, ttl);
    if (!held) {
      const holder = await leases.holder(leaseName(id));
      if (holder !== null && !ownerMayBeAlive(holder.owner)) {
        await leases.release(leaseName(id), holder.owner);
        held = await leases.acquire(leaseName(id), this.#owner, ttl);
      }
    }
    if (held) this.#follow(id).leaseAt = now.getTime();
    return held;
  }

  /** Asks LiveResultat about the competition, for every club that follows it, and says when to ask next. */
  async #poll(follow: Follow, followers: readonly Follower[], now: Date): Promise<void> {
    const names = [...new Set(followers.flatMap((f) => f.record.clubNames))].sort();
    const namesKey = names.join('\n');
    if (follow.tracker === null || namesKey !== follow.namesKey) {
      follow.tracker = new CompetitionTracker(this.#options.live.client, follow.id, clubAliases({ name: null }, names));
      follow.namesKey = namesKey;
    }
    const at = now.getTime();
    let state;
    try {
      state = await follow.tracker.refresh();
    } catch (error) {
      if (!(error instanceof LiveError)) throw error;
      await this.#failed(follow, followers, now, error);
      return;
    }
    const before = follow.read;
    const first = before === null;
    // Against this process's last read, or the snapshot another process left (the tracker's first read says "unchanged").
    const changed =
      state.changed || (before !== null && JSON.stringify(before.runners) !== JSON.stringify(state.runners));
    const wasFailing = follow.failing;
    follow.failures = 0;
    follow.failing = false;
    follow.read = { competition: state.competition, runners: state.runners };
    follow.readAt = now;
    // The first read starts the wait for "stopped changing"; only a real change keeps the polling hot.
    if (changed || first) follow.lastChangeAt = at;
    if (changed) follow.changedAt = at;
    if (changed || first || wasFailing || at - (follow.snapshotAt ?? 0) >= SNAPSHOT_EVERY_MS) {
      const snapshot: LiveSnapshot = { ...follow.read, failing: false };
      await this.#options.store.live.putSnapshot(
        follow.id,
        JSON.stringify(snapshot),
        follow.lastChangeAt === null ? null : new Date(follow.lastChangeAt).toISOString(),
      );
      follow.snapshotAt = at;
    }
    const tier = pollTier({
      runners: state.runners,
      secondsIntoDay: secondsAt(state.competition, now),
      lastChangeAt: follow.changedAt,
      now: at,
      final: false,
    });
    if (tier.everyMs === null) follow.stopped = true;
    else follow.nextPollAt = at + tier.everyMs;
  }

  /** A failed read: back off, say so on the boards, and tell each server's admins once. */
  async #failed(follow: Follow, followers: readonly Follower[], now: Date, error: LiveError): Promise<void> {
    follow.failures += 1;
    follow.nextPollAt = now.getTime() + failureBackoffMs(follow.failures);
    // A competition removed from LiveResultat does not come back today.
    if (error.code === 'NotFound') follow.stopped = true;
    this.#options.log.warn('live results could not be read; backing off', {
      competitionId: follow.id,
      failures: follow.failures,
      code: error.code,
      error,
    });
    if (follow.failing) return;
    follow.failing = true;
    if (follow.read !== null)
      await this.#options.store.live.putSnapshot(
        follow.id,
        JSON.stringify({ ...follow.read, failing: true } satisfies LiveSnapshot),
        follow.lastChangeAt === null ? null : new Date(follow.lastChangeAt).toISOString(),
      );
    for (const guildId of new Set(followers.map((f) => f.row.guildId))) {
      const follower = followers.find((f) => f.row.guildId === guildId)!;
      if (await firstLiveDown(this.#ledger, guildId, `competition:${follow.id}`))
        await this.#notices.tell(guildId, follower.language, 'scheduler.liveDown', {
          noticeLabel: 'scheduler.kind.live',
          channelId: follower.settings.channelId,
        });
    }
  }

  /** Each following server's board, finish messages and members' DMs, as they stand now. */
  async #show(
    follow: Follow,
    followers: readonly Follower[],
    now: Date,
    done: LiveTurn,
    slices: TimeSlices,
  ): Promise<void> {
    if (follow.read === null) return;
    const { competition, runners: all } = follow.read;
    const seconds = secondsAt(competition, now);
    const poster = new Poster(this.#ledger, this.#target);
    // Servers of one club share its runners: told apart once per club, not once per server.
    const byClub = new Map<string, LiveRunner[]>();
    // And their board's hash, once per club and board state.
    const hashes = new Map<string, string>();
    for (const f of followers) {
      await slices.giveWay();
      const club = JSON.stringify(f.record.clubNames);
      let runners = byClub.get(club);
      if (runners === undefined) {
        runners = runnersOf(f.record, all);
        byClub.set(club, runners);
      }
      const { row } = f;
      if (
        row.finalAt === null &&
        (seconds >= 86_400 ||
          (runners.length > 0 &&
            follow.lastChangeAt !== null &&
            now.getTime() - follow.lastChangeAt >=
              (allHome(runners, seconds) ? STILL_FOR_FINAL_MS : QUIET_FOR_FINAL_MS)))
      ) {
        await this.#options.store.live.markFinal(row.guildId, row.eventId, row.raceId, null);
        row.finalAt = now.toISOString();
      }
      // The live renderers link nothing of Eventor's.
      const ctx: RenderContext = { language: f.language, timeZone: f.timeZone, now, webUrl: '' };
      await this.#board(follow, f, { runners, club, hashes }, seconds, ctx, poster, now, done);
      if (f.settings.options.finishes) await this.#finishes(follow, f, runners, ctx, poster, now, done);
      await this.#dms(follow, f, runners, poster, now, done);
    }
  }

  async #board(
    follow: Follow,
    f: Follower,
    shared: { runners: readonly LiveRunner[]; club: string; hashes: Map<string, string> },
    seconds: number,
    ctx: RenderContext,
    poster: Poster,
    now: Date,
    done: LiveTurn,
  ): Promise<void> {
    const { row } = f;
    const { runners } = shared;
    const competition = follow.read!.competition;
    const final = row.finalAt !== null;
    const state = { final, resultsUrl: row.resultsUrl, failing: follow.failing };
    const hashKey = JSON.stringify([shared.club, state]);
    let hash = shared.hashes.get(hashKey);
    if (hash === undefined) {
      hash = boardHash(competition, runners, seconds, state);
      shared.hashes.set(hashKey, hash);
    }
    const itemKey = boardKey(row.eventId, row.raceId);
    const shownKey = `${row.guildId}|${itemKey}`;
    const shown = follow.shown.get(shownKey);
    if (shown?.hash === hash) return;
    // Coalesced: a change within the wait goes out with the next turn after it, whatever changed meanwhile.
    const wait = this.#options.boardEditMinMs ?? BOARD_EDIT_MIN_MS;
    if (shown !== undefined && now.getTime() - shown.at < wait && !final) return;
    const payload = renderLiveBoard(
      {
        competition: { id: competition.id, name: competition.name },
        runners,
        secondsIntoDay: seconds,
        final,
        resultsUrl: row.resultsUrl,
        liveUrl: this.#options.live.pageOf(competition.id),
        readAt: follow.readAt ?? now,
        sourceDown: follow.failing,
      },
      ctx,
    );
    const ref: ItemRef = { guildId: row.guildId, feed: LIVE_FEED, itemKey };
    const channelId = await this.#boardChannel(f, ref);
    // The race's thread is being opened (by another process, or Discord failed): the next turn.
    if (channelId === null) return;
    const item = { ...ref, payload: withRoleMention(payload, f.settings.roleId), contentHash: hash };
    let outcome = await poster.publish({ ...item, channelId });
    const liveChannel = f.settings.channelId!;
    if (outcome.kind === 'paused' && channelId !== liveChannel) {
      // The race's thread is gone or closed to the bot (deleted, locked): the board goes on in the
      // kind's own channel, posted anew there once (the poster moves it), and the admins are told once
      // (docs/admins.md#live-results-on-race-day). The kind is not paused: its channel is fine.
      this.#options.log.warn('live board: its race thread refused it; it goes on in the live channel', {
        guildId: row.guildId,
        threadId: channelId,
        code: outcome.code,
      });
      outcome = await poster.publish({ ...item, channelId: liveChannel });
      if (
        (outcome.kind === 'posted' || outcome.kind === 'reposted') &&
        (await firstBoardMoved(this.#ledger, row.guildId, itemKey))
      )
        await this.#notices.tell(row.guildId, f.language, 'scheduler.liveBoardMoved', {
          noticeLabel: 'scheduler.kind.live',
          channelId: liveChannel,
        });
    }
    if (await this.#counted(outcome, f, now, done)) follow.shown.set(shownKey, { hash, at: now.getTime() });
  }

  /**
   * Where a race's board goes (docs/admins.md#live-results-on-race-day): decided when it is first
   * posted, and kept for the race (turning threads on mid-race does not move a board). Into the
   * race's thread when the server's results kind keeps threads (opened now, as the results would
   * open it, if they are not out yet), else, or when Discord refuses the thread, into the kind's
   * own channel. A board in a thread stays there while the thread is the race's; null while the
   * thread is being opened elsewhere.
   */
  async #boardChannel(f: Follower, ref: ItemRef): Promise<string | null> {
    const liveChannel = f.settings.channelId!;
    const { record, row } = f;
    // The results' item of the race, whose thread the board shares.
    const itemKey = resultsKey(row.eventId, row.raceId, record.raceCount);
    const board = await this.#ledger.get(ref);
    if (board !== null) {
      if (board.channelId === liveChannel) return liveChannel;
      return board.channelId === (await raceThreadId(this.#ledger, row.guildId, itemKey))
        ? board.channelId
        : liveChannel;
    }
    // Read only for a board not posted yet (not on every turn of every server).
    const results = await this.#settings.get<ResultsOptions>(row.guildId, RESULTS_FEED);
    if (!results.enabled || results.pausedReason !== null || results.channelId === null || !results.options.threads)
      return liveChannel;
    const name = threadName(
      record.eventName,
      record.raceCount > 1 ? (record.raceName ?? String(record.raceNumber)) : null,
      f.language,
    );
    const thread = await openRaceThread({
      guildId: row.guildId,
      channelId: results.channelId,
      ledger: this.#ledger,
      target: this.#target,
      itemKey,
      name,
      starter: {
        content: t(f.language, 'live.thread.starter', { race: escapeName(raceTitle(record)) }),
        allowedMentions: { parse: [] },
      },
    });
    if (thread.kind === 'open') return thread.threadId;
    if (thread.kind === 'waiting') return null;
    this.#options.log.warn("live board: the race's thread could not be opened; the board goes in the live channel", {
      guildId: row.guildId,
      code: thread.code,
    });
    return liveChannel;
  }

  /** The finish messages not yet out: a finish seen long after it happened is recorded instead (no burst after a restart). */
  async #finishes(
    follow: Follow,
    f: Follower,
    runners: readonly LiveRunner[],
    ctx: RenderContext,
    poster: Poster,
    now: Date,
    done: LiveTurn,
  ): Promise<void> {
    const { row } = f;
    const liveChannel = f.settings.channelId!;
    // Beside the board: in the race's thread when the board is there.
    const board = await this.#ledger.get({
      guildId: row.guildId,
      feed: LIVE_FEED,
      itemKey: boardKey(row.eventId, row.raceId),
    });
    // The board first (its thread may be opening still): the finishes wait for the next turn.
    if (board?.state !== 'posted') return;
    const channelId = board.channelId;
    for (const item of finishItems(follow.read!.competition, runners, row, ctx)) {
      const shownKey = `${row.guildId}|${item.itemKey}`;
      if (follow.shown.get(shownKey)?.hash === item.contentHash) continue;
      const ref = { guildId: row.guildId, feed: LIVE_FEED, itemKey: item.itemKey };
      if (now.getTime() - item.finishedAt > FINISH_NEWS_MS && (await this.#ledger.get(ref)) === null) {
        await this.#ledger.seed(row.guildId, LIVE_FEED, channelId, [item]);
        follow.shown.set(shownKey, { hash: item.contentHash, at: now.getTime() });
        continue;
      }
      const finish = { ...ref, payload: item.payload, contentHash: item.contentHash };
      let outcome = await poster.publish({ ...finish, channelId });
      // The thread is gone or closed to the bot: the board moves to the channel too (`#board`).
      if (outcome.kind === 'paused' && channelId !== liveChannel)
        outcome = await poster.publish({ ...finish, channelId: liveChannel });
      if (!(await this.#counted(outcome, f, now, done))) return;
      follow.shown.set(shownKey, { hash: item.contentHash, at: now.getTime() });
    }
  }

  /**
   * The DMs of the server's members who want them (`/notify on what: live`) about their own linked
   * persons who finished: only a runner confirmed as exactly that person (never an ambiguous one),
   * once each, edited when the place changes while the day lasts.
   */
  async #dms(
    follow: Follow,
    f: Follower,
    runners: readonly LiveRunner[],
    poster: Poster,
    now: Date,
    done: LiveTurn,
  ): Promise<void> {
    const { row } = f;
    const finished = runners.filter((r) => FINAL_STATUSES.has(r.status));
    if (finished.length === 0) return;
    const members = (await this.#subscriptions.active(row.guildId)).filter((sub) => sub.live);
    if (members.length === 0) return;
    const checked = crossCheck(finished, entriesOf(f.record));
    const server = this.#options.client.guilds.cache.get(row.guildId)?.name ?? f.guild?.organisationName ?? null;
    for (const sub of members) {
      let channelId = sub.dmChannelId;
      let confirmed = this.#options.membership === undefined;
      for (const person of await this.#options.store.links.linkedPersons(row.guildId, sub.userId)) {
        const found = runnerOfPerson(checked, person.personId);
        if (!('runner' in found)) continue;
        const payload = renderLiveFinishDm(
          found.runner,
          { language: languageFor(sub.locale), timeZone: f.timeZone, now, webUrl: '' },
          { competition: raceTitle(f.record), own: person.isDefault, server },
        );
        if (payload === null) continue;
        const feed = personalFeed(sub.userId, 'live', person.personId);
        const itemKey = ledgerKey(LIVE_FEED, row.eventId, row.raceId);
        const hash = contentHash(payload);
        const shownKey = `${row.guildId}|${feed}|${itemKey}`;
        if (follow.shown.get(shownKey)?.hash === hash) continue;
        if (!confirmed) {
          const status = await this.#options.membership!.verify(row.guildId, sub.userId);
          if (status !== 'present') break;
          confirmed = true;
        }
        if (channelId === null) {
          try {
            channelId = await openDmChannel(this.#options.client, sub.userId);
          } catch (error) {
            this.#options.log.warn("could not open a member's DM channel for a live finish", {
              guildId: row.guildId,
              userId: sub.userId,
              error,
            });
            break;
          }
          await this.#subscriptions.setDmChannel(row.guildId, sub.userId, channelId);
        }
        const outcome = await poster.publish({
          guildId: row.guildId,
          feed,
          itemKey,
          channelId,
          payload,
          contentHash: hash,
        });
        if (outcome.kind === 'paused') {
          // Refused DMs are paused until the member turns them on again, as every personal DM.
          if (outcome.reason === 'channel-gone') await this.#subscriptions.setDmChannel(row.guildId, sub.userId, null);
          await this.#subscriptions.pause(
            row.guildId,
            sub.userId,
            outcome.reason === 'channel-gone' ? 'dm-unavailable' : 'dms-closed',
          );
          break;
        }
        if (outcome.kind === 'failed') {
          done.failed += 1;
          this.#options.log.warn('a live finish DM failed; trying again on the next turn', {
            guildId: row.guildId,
            userId: sub.userId,
            error: outcome.error,
          });
          break;
        }
        if (outcome.kind === 'posted' || outcome.kind === 'reposted' || outcome.kind === 'edited') done.dms += 1;
        if (outcome.kind !== 'busy') follow.shown.set(shownKey, { hash, at: now.getTime() });
      }
    }
  }

  /** Counts an outcome; a refused channel pauses the kind (its admins are told). False when it did not go through. */
  async #counted(outcome: PostOutcome, f: Follower, now: Date, done: LiveTurn): Promise<boolean> {
    switch (outcome.kind) {
      case 'posted':
      case 'reposted':
        done.posts += 1;
        return true;
      case 'edited':
        done.edits += 1;
        return true;
      case 'paused':
        await this.#pauses.pause(
          `${f.row.guildId}|${LIVE_FEED}`,
          f.settings,
          outcome.reason === 'channel-gone' ? 'channel-missing' : 'no-permission',
          now,
          f.language,
        );
        // Read again next turn: the kind is paused now.
        f.settings = { ...f.settings, pausedReason: 'no-permission' };
        return false;
      case 'failed':
        done.failed += 1;
        this.#options.log.warn('a live board or finish message failed; trying again on the next turn', {
          guildId: f.row.guildId,
          error: outcome.error,
        });
        return false;
      case 'busy':
        return false;
      default:
        return true;
    }
  }

  /** Once a day: races and snapshots of past days go (SECURITY.md). */
  async #prune(now: Date): Promise<void> {
    const today = queryDay(now);
    if (this.#prunedDay === today) return;
    this.#prunedDay = today;
    // Races of past days are not read again.
    this.#records.clear();
    await this.#options.store.live.prune(addDays(today, -LIVE_KEEP_DAYS));
  }
}

function leaseName(id: number): string {
  return `live:${id}`;
}
