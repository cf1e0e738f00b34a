/**
 * What `/live` asks (docs/live-results.md#race-day-in-discord): today's races the server follows on
 * LiveResultat and their boards as the last poll read them (kept in the store by whichever process
 * polls, so any process answers), and an admin's choice of a race's competition, by id or by a
 * pasted address. Only the id is taken from what the admin typed; LiveResultat is asked on the
 * operator's addresses (the bot's `LiveAccess`), never on one from the admin. A competition of
 * another day is refused, nothing changed; one whose name and organiser look little like the race
 * is taken, with a word.
 */
import type { EventorClient } from '../eventor/client.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { FeedKind } from '../feeds/kind.js';
import type { LiveAccess } from '../feeds/kinds/live/access.js';
import { type LiveSnapshot, readSnapshot, runnersOf, secondsAt } from '../feeds/kinds/live/board.js';
import {
  LIVE_FEED,
  type LiveRaceRecord,
  raceTitle,
  readCandidates,
  readRaceRecord,
  recordToMatch,
} from '../feeds/kinds/live/race.js';
import { localDate } from '../feeds/cadence.js';
import { KindSettings } from '../feeds/settings.js';
import { LiveError } from '../live/errors.js';
import { linkedCompetitionProblems, parseLiveAddress } from '../live/match.js';
import type { LiveCompetition, LiveRunner } from '../live/model.js';
import type { LiveBoardView } from '../render/index.js';
import type { LiveRaceRow, Store } from '../store/interfaces.js';
import { instantToLocal } from '../time/zones.js';

/** One of today's races as `/live` shows it. */
export interface LiveRaceView {
  row: LiveRaceRow;
  record: LiveRaceRecord;
  title: string;
  /** What the last poll read, and when; null before the first. */
  snapshot: { competition: LiveCompetition; failing: boolean; readAt: Date } | null;
  /** The server's club's runners in it. */
  runners: LiveRunner[];
  /** Its board as the channel shows it now; null before the first read. */
  board: LiveBoardView | null;
}

export type LiveBoards =
  /** The operator configured no LiveResultat. */
  | { kind: 'unconfigured' }
  /** The server has not turned the live kind on. */
  | { kind: 'off' }
  | { kind: 'races'; races: LiveRaceView[] };

export interface LiveChoice {
  title: string;
  competition: { id: number; name: string };
  /** Its name and organiser look little like the race's. */
  unlike: boolean;
  /** Whether the kind is on, and its channel. */
  on: boolean;
  channelId: string | null;
}

/** An event option's value: `<eventId>` or `<eventId>:<raceId>` (what the autocomplete gives). */
const EVENT_VALUE = /^(\d{1,20})(?::(\d{1,20}))?$/;

export class LiveService {
  readonly #store: Store;
  readonly #now: () => Date;
  readonly #live: LiveAccess | null;
  readonly #settings: KindSettings;

  constructor(deps: {
    store: Store;
    now: () => Date;
    live: LiveAccess | null;
    kinds?: readonly FeedKind[] | undefined;
  }) {
    this.#store = deps.store;
    this.#now = deps.now;
    this.#live = deps.live;
    this.#settings = new KindSettings(deps.store, deps.now, deps.kinds);
  }

  /** Today's races of the server (its zone's today) as the matching found them, by day. */
  async today(guildId: string, timeZone: string): Promise<Array<{ row: LiveRaceRow; title: string }>> {
    const today = localDate(this.#now(), timeZone);
    return (await this.#store.live.races(guildId, today, today)).map((row) => ({
      row,
      title: raceTitle(readRaceRecord(row.race)),
    }));
  }

  /** The boards of today's races (or the one `event` names), as the last poll read them. */
  async boards(guildId: string, timeZone: string, event: string | null): Promise<LiveBoards> {
    if (this.#live === null) return { kind: 'unconfigured' };
    if (!(await this.#settings.get(guildId, LIVE_FEED)).enabled) return { kind: 'off' };
    const wanted = event === null ? null : EVENT_VALUE.exec(event.trim());
    if (event !== null && wanted === null) return { kind: 'races', races: [] };
    const races: LiveRaceView[] = [];
    for (const { row, title } of await this.today(guildId, timeZone)) {
      if (wanted && (row.eventId !== wanted[1] || (wanted[2] !== undefined && row.raceId !== wanted[2]))) continue;
      const record = readRaceRecord(row.race);
      const stored = row.competitionId === null ? null : await this.#store.live.snapshot(row.competitionId);
      const snapshot: LiveSnapshot | null = readSnapshot(stored?.state);
      const runners = snapshot === null ? [] : runnersOf(record, snapshot.runners);
      const readAt = stored === null ? null : new Date(stored.readAt);
      races.push({
        row,
        record,
        title,
        snapshot:
          snapshot === null || readAt === null
            ? null
            : { competition: snapshot.competition, failing: snapshot.failing, readAt },
        runners,
        board:
          snapshot === null || readAt === null
            ? null
            : {
                competition: { id: snapshot.competition.id, name: snapshot.competition.name },
                runners,
                secondsIntoDay: secondsAt(snapshot.competition, this.#now()),
                final: row.finalAt !== null,
                resultsUrl: row.resultsUrl,
                liveUrl: this.#live.pageOf(snapshot.competition.id),
                readAt,
                sourceDown: snapshot.failing,
              },
      });
    }
    return { kind: 'races', races };
  }

  /**
   * An admin's choice of a race's competition, from an id or an address (only its id is used). The
   * race is one of today's the bot knows, or today's race of the event the admin names (asked of
   * Eventor). Refused with one message, nothing changed: no such competition, another day's, a
   * LiveRes or other site's address, LiveResultat not answering.
   */
  async choose(request: {
    guildId: string;
    timeZone: string;
    event: string;
    competition: string;
    eventor: () => Promise<{ client: EventorClient; organisationId: string }>;
  }): Promise<LiveChoice> {
    const parsed = parseLiveAddress(request.competition);
    if ('problem' in parsed) {
      const keys = {
        empty: 'live.link.empty',
        'not-an-address': 'live.link.notAddress',
        'other-site': 'live.link.otherSite',
        'no-competition': 'live.link.noCompetition',
      } as const;
      throw new UserFacingError(keys[parsed.problem]);
    }
    if (parsed.service === 'liveres') throw new UserFacingError('live.link.liveres');
    if (this.#live === null) throw new UserFacingError('live.show.unconfigured');
    const race = await this.#race(request);
    let competition: LiveCompetition;
    try {
      competition = await this.#live.client.competition(parsed.id);
    } catch (error) {
      if (!(error instanceof LiveError)) throw error;
      if (error.code === 'NotFound' || error.code === 'WrongCompetition')
        throw new UserFacingError('live.link.notFound', { id: parsed.id });
      throw new UserFacingError('live.link.unavailable');
    }
    const problems = linkedCompetitionProblems(recordToMatch(race.record, race.raceDay), competition);
    if (problems.includes('other-day'))
      throw new UserFacingError('live.link.otherDay', {
        id: competition.id,
        date: competition.date,
        raceDay: race.raceDay,
      });
    await this.#store.live.choose(
      {
        guildId: request.guildId,
        eventId: race.eventId,
        raceId: race.raceId,
        raceDay: race.raceDay,
        race: JSON.stringify(race.record),
      },
      competition.id,
    );
    const settings = await this.#settings.get(request.guildId, LIVE_FEED);
    return {
      title: raceTitle(race.record),
      competition: { id: competition.id, name: competition.name },
      unlike: problems.includes('unlike'),
      on: settings.enabled,
      channelId: settings.channelId,
    };
  }

  /**
   * An offered competition taken with its button: only one the offer named for that race, and only
   * while the race is today; null when the offer is no longer valid (nothing is changed then).
   */
  async pick(
    guildId: string,
    timeZone: string,
    race: { eventId: string; raceId: string; competitionId: number },
  ): Promise<{ title: string; competition: { id: number; name: string } } | null> {
    const row = await this.#store.live.race(guildId, race.eventId, race.raceId);
    if (row === null || row.raceDay !== localDate(this.#now(), timeZone)) return null;
    const title = raceTitle(readRaceRecord(row.race));
    const offered = readCandidates(row.candidates).find((c) => c.id === race.competitionId);
    // Pressed again after it was taken: the same answer, nothing changed.
    if (row.how === 'admin' && row.competitionId === race.competitionId)
      return { title, competition: { id: race.competitionId, name: offered?.name ?? String(race.competitionId) } };
    if (row.how !== 'uncertain' || offered === undefined) return null;
    await this.#store.live.choose(row, offered.id);
    return { title, competition: { id: offered.id, name: offered.name } };
  }

  /** The race an admin named: one of today's the bot knows, or today's race of that event in Eventor. */
  async #race(request: {
    guildId: string;
    timeZone: string;
    event: string;
    eventor: () => Promise<{ client: EventorClient; organisationId: string }>;
  }): Promise<{ eventId: string; raceId: string; raceDay: string; record: LiveRaceRecord }> {
    const wanted = EVENT_VALUE.exec(request.event.trim());
    if (wanted === null) throw new UserFacingError('live.link.noRace');
    const [, eventId, raceId] = wanted as unknown as [string, string, string | undefined];
    const today = localDate(this.#now(), request.timeZone);
    const known = (await this.#store.live.races(request.guildId, today, today)).find(
      (row) => row.eventId === eventId && (raceId === undefined || row.raceId === raceId),
    );
    if (known) return { eventId, raceId: known.raceId, raceDay: today, record: readRaceRecord(known.race) };
    const { client, organisationId } = await request.eventor();
    const event = await client.event({ eventId }).catch(() => null);
    const index =
      event?.races.findIndex(
        (race) =>
          race.date !== null &&
          instantToLocal(race.date, request.timeZone).date === today &&
          (raceId === undefined || race.id === raceId),
      ) ?? -1;
    if (event === null || event === undefined || index < 0 || event.status === 'canceled')
      throw new UserFacingError('live.link.noRace');
    const race = event.races[index]!;
    const organisation = await client.organisation({ id: organisationId }).catch(() => null);
    const clubNames = [organisation?.name, organisation?.shortName, organisation?.mediaName].filter(
      (name): name is string => typeof name === 'string' && name.trim() !== '',
    );
    return {
      eventId,
      raceId: race.id,
      raceDay: today,
      // The club's runners come with the next matching run, which keeps this choice.
      record: {
        eventName: event.name,
        raceName: event.races.length > 1 ? race.name : null,
        raceNumber: index + 1,
        raceCount: event.races.length,
        start: race.date,
        organisers: event.organisers.map((o) => ({ name: o.name, shortName: o.shortName })),
        countryCode: event.organisers.find((o) => o.countryCode !== null)?.countryCode ?? null,
        clubNames,
        entries: [],
      },
    };
  }
}
