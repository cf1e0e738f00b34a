/**
 * The club's season from Eventor (docs/season.md#what-it-asks-eventor): the club's races of a
 * period, each race's results for the club asked once and kept in the store, asked again only in
 * the days after the race when corrections are likely. What `/season`, `/season club`, the cups and
 * the cups' standings posts show is computed from those kept races (src/season/), so a member's
 * year, the club's table and every cup cost Eventor nothing once their races are kept. Here, below
 * the services and the feeds, because both read it (docs/architecture.md#srcclub).
 *
 * - Finding the races: the club's entries (the events its members entered) and the events it
 *   organised, looked for once a day per year, from the last day looked at on.
 * - A race's results: `/results/organisation` for the club with the winner of each class (`top=1`),
 *   one request per event, kept as the season's races (src/season/races.ts).
 */
import { millisecondsInDay as DAY, millisecondsInHour as HOUR } from 'date-fns/constants';
import { EventorError, InvalidResponse, NotFound } from '../eventor/errors.js';
import type { Event } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import { type CupResult, CupRules, cupStandings } from '../season/cup.js';
import { isRelay, type SeasonEvent, seasonEventOf, type SeasonRace, seasonRaces } from '../season/races.js';
import { type ClubSeason, clubSeason, type DatedRace, type MemberSeason, memberSeason } from '../season/summary.js';
import type { CupRow, SeasonEventRow, Store, StoreParts } from '../store/interfaces.js';
import { addDays, dayWindow, localToday, queryDay } from '../time/days.js';
import { instantToLocal } from '../time/zones.js';
import type { GuildEventor } from './eventor-access.js';
import { fold } from '../text/fold.js';

/** The days after a race its results may still be corrected: asked again within them, never after. */
export const CORRECTION_DAYS = 3;
/** How often, within those days, a race's results are asked again (when the season is asked). */
export const RESULTS_REFRESH_MS = HOUR;
/** Events asked for their results at once (one client, its own concurrency limit beside). */
const PARALLEL = 3;

/** The server whose season it is: its id, and the zone its days are in. */
export interface SeasonGuild {
  id: string;
  timeZone: string;
}

/** The season's races of a period, and whether some could not be asked now (shown as they were kept). */
export interface SeasonRaces {
  races: DatedRace[];
  /** Events whose results Eventor could not give now: they are left out, or shown as last kept. */
  unavailable: number;
}

/** The year's first and last day. */
export function yearDays(year: number): { from: string; to: string } {
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/**
 * The club's Eventor as the season asks it: the server's client and club (a command's connection,
 * or a feed run's client and organisation).
 */
export type SeasonEventor = Pick<GuildEventor, 'client' | 'instance' | 'organisationId'>;

/** Whose season a row is: the Eventor and the club (ids are per instance, and a server may move club). */
export function seasonSource(eventor: Pick<SeasonEventor, 'instance' | 'organisationId'>): string {
  return `${eventor.instance.baseUrl} ${eventor.organisationId}`;
}

function localDay(instant: string | null, timeZone: string): string | null {
  return instant === null || Number.isNaN(Date.parse(instant)) ? null : instantToLocal(instant, timeZone).date;
}

/** The start of the event's last race: corrections are counted from it. */
function lastRaceStart(event: SeasonEvent): number | null {
  const starts = [event.start, ...event.races.map((r) => r.date)]
    .filter((d): d is string => d !== null)
    .map((d) => Date.parse(d))
    .filter((t) => !Number.isNaN(t));
  return starts.length === 0 ? null : Math.max(...starts);
}

function firstRaceStart(event: SeasonEvent): number | null {
  const first = event.races[0]?.date ?? event.start;
  return first === null ? null : Date.parse(first);
}

/** Whether an event counts at all: a relay or a cancelled event never does, so its results are never asked. */
function counts(event: SeasonEvent): boolean {
  return !isRelay(event) && event.status !== 'canceled';
}

/** Whether to ask an event's results now: begun, and not kept, or kept while corrections are likely and not lately. */
export function resultsDue(
  event: SeasonEvent,
  row: Pick<SeasonEventRow, 'fetchedAt' | 'settled'>,
  now: number,
): boolean {
  if (!counts(event) || row.settled) return false;
  const first = firstRaceStart(event);
  if (first === null || Number.isNaN(first) || first > now) return false;
  return row.fetchedAt === null || now - Date.parse(row.fetchedAt) >= RESULTS_REFRESH_MS;
}

/** Whether results asked at `now` are the last word: the corrections days after its last race are over. */
function settledAt(event: SeasonEvent, now: number): boolean {
  const last = lastRaceStart(event);
  return last !== null && now >= last + CORRECTION_DAYS * DAY;
}

function parseEvent(row: SeasonEventRow): SeasonEvent | null {
  try {
    return JSON.parse(row.event) as SeasonEvent;
  } catch {
    return null;
  }
}

function parseRaces(text: string | null): SeasonRace[] {
  if (text === null) return [];
  try {
    return JSON.parse(text) as SeasonRace[];
  } catch {
    return [];
  }
}

export interface SeasonServiceDeps {
  store: Store;
  now: () => Date;
  log: Logger;
}

/** One per running bot (`createServices`): the season's races, and what the commands show of them. */
export class SeasonService {
  readonly #deps: SeasonServiceDeps;
  /** Looks and fetches under way, so that members asking at once share them. */
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(deps: SeasonServiceDeps) {
    this.#deps = deps;
  }

  #shared<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started = work().finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, started);
    return started;
  }

  /**
   * Looks for the year's events from the last day looked at (every day of the year the first time)
   * through today, at most once a day: the club's entries, the events it organised, and the events
   * the entries name that are not known yet.
   */
  async #scan(eventor: SeasonEventor, guild: SeasonGuild, year: number): Promise<void> {
    const source = seasonSource(eventor);
    const today = localToday(this.#deps.now(), guild.timeZone);
    const { from: yearStart, to: yearEnd } = yearDays(year);
    if (yearStart > today) return;
    const end = yearEnd < today ? yearEnd : today;
    const scan = await this.#deps.store.season.scan(guild.id, source, year);
    if (scan !== null && scan.scannedThrough >= end) return;
    // From the last day looked at (its events may have been entered since), or the whole year.
    const from = scan === null ? yearStart : scan.scannedThrough;
    await this.#shared(`scan|${guild.id}|${source}|${year}`, async () => {
      const window = dayWindow(from, end, guild.timeZone);
      const fromDate = queryDay(Date.parse(window.from));
      const toDate = queryDay(Date.parse(window.to));
      const club = eventor.organisationId;
      const [entries, organised] = await Promise.all([
        eventor.client.entries({ organisationIds: [club], fromEventDate: fromDate, toEventDate: toDate }),
        eventor.client.events({ organisationIds: [club], fromDate, toDate }),
      ]);
      const known = new Set(
        (await this.#deps.store.season.events(guild.id, source, yearStart, yearEnd)).map((r) => r.eventId),
      );
      const events = new Map<string, Event>();
      for (const event of organised) events.set(event.id, event);
      const entered = new Set<string>();
      for (const entry of entries) {
        const id = entry.event.id ?? entry.event.event?.id ?? null;
        if (id !== null && !events.has(id) && !known.has(id)) entered.add(id);
      }
      if (entered.size > 0)
        for (const event of await eventor.client.events({ eventIds: [...entered].sort() })) events.set(event.id, event);
      const found = [...events.values()].flatMap((event) => {
        const kept = seasonEventOf(event);
        const firstDay = localDay(kept.races[0]?.date ?? kept.start, guild.timeZone);
        if (firstDay === null || firstDay < yearStart || firstDay > yearEnd) return [];
        return [{ eventId: event.id, firstDay, event: JSON.stringify(kept) }];
      });
      await this.#deps.store.season.recordScan(guild.id, source, year, end, found);
    });
  }

  /** Asks one event's results for the club and keeps them; false when Eventor cannot give them now. */
  async #fetch(eventor: SeasonEventor, guild: SeasonGuild, event: SeasonEvent, log: Logger): Promise<boolean> {
    const source = seasonSource(eventor);
    return this.#shared(`results|${guild.id}|${source}|${event.id}`, async () => {
      const club = eventor.organisationId;
      let races: SeasonRace[];
      try {
        const list = await eventor.client.organisationResults({ organisationIds: [club], eventId: event.id, top: 1 });
        races = seasonRaces(list, { keep: (p) => p.organisation?.id === club, complete: false, event });
      } catch (error) {
        // A refused key concerns everything: the caller says so. An event Eventor no longer has, or
        // answers unreadably, is left as it was kept; so is one asked while Eventor is down.
        if (error instanceof EventorError && error.code === 'InvalidApiKey') throw error;
        if (!(error instanceof EventorError)) throw error;
        log.warn('season: results of an event not available now', {
          eventId: event.id,
          notFound: error instanceof NotFound,
          unreadable: error instanceof InvalidResponse,
          error,
        });
        return false;
      }
      await this.#deps.store.season.putResults(
        guild.id,
        source,
        event.id,
        JSON.stringify(races),
        settledAt(event, this.#deps.now().getTime()),
      );
      return true;
    });
  }

  /**
   * The club's races whose local day is in [from, to]: the years they fall in looked for (as
   * needed), every race whose results are due asked (at most PARALLEL at once), the rest as kept.
   */
  async races(
    eventor: SeasonEventor,
    guild: SeasonGuild,
    from: string,
    to: string,
    log?: Logger,
  ): Promise<SeasonRaces> {
    const logger = log ?? this.#deps.log;
    const source = seasonSource(eventor);
    const firstYear = Number(from.slice(0, 4));
    const lastYear = Number(to.slice(0, 4));
    for (let year = firstYear; year <= lastYear; year++) {
      try {
        await this.#scan(eventor, guild, year);
      } catch (error) {
        // Eventor down while a year was looked at before: the races found then still answer (the
        // newest may be missing until the next look). A refused key, or nothing found yet, is told.
        const known = await this.#deps.store.season.scan(guild.id, source, year);
        if (!(error instanceof EventorError) || error.code === 'InvalidApiKey' || known === null) throw error;
        logger.warn('season: could not look for new races now; answering from those found before', { year, error });
      }
    }
    // A multi-day event may begin a few days before the period and have races in it.
    let rows = await this.#deps.store.season.events(guild.id, source, addDays(from, -7), to);
    const now = this.#deps.now().getTime();
    const due = rows.flatMap((row) => {
      const event = parseEvent(row);
      return event !== null && resultsDue(event, row, now) ? [event] : [];
    });
    let unavailable = 0;
    for (let i = 0; i < due.length; i += PARALLEL) {
      const asked = await Promise.all(due.slice(i, i + PARALLEL).map((e) => this.#fetch(eventor, guild, e, logger)));
      unavailable += asked.filter((ok) => !ok).length;
    }
    if (due.length > 0) rows = await this.#deps.store.season.events(guild.id, source, addDays(from, -7), to);
    const races: DatedRace[] = [];
    for (const row of rows) {
      const event = parseEvent(row);
      if (event === null || !counts(event)) continue;
      for (const race of parseRaces(row.races)) {
        const day = localDay(race.date, guild.timeZone);
        if (day !== null && day >= from && day <= to) races.push({ race, day });
      }
    }
    return { races, unavailable };
  }

  /** A member's year: their races among the club's, from what is kept (and what is due). */
  async memberSeason(
    eventor: SeasonEventor,
    guild: SeasonGuild,
    personId: string,
    year: number,
    log?: Logger,
  ): Promise<{ season: MemberSeason; unavailable: number }> {
    const { from, to } = yearDays(year);
    const { races, unavailable } = await this.races(eventor, guild, from, to, log);
    return { season: memberSeason(races, personId), unavailable };
  }

  /** The club's table of a year. */
  async clubSeason(
    eventor: SeasonEventor,
    guild: SeasonGuild,
    year: number,
    log?: Logger,
  ): Promise<{ season: ClubSeason; unavailable: number }> {
    const { from, to } = yearDays(year);
    const { races, unavailable } = await this.races(eventor, guild, from, to, log);
    return { season: clubSeason(races), unavailable };
  }

  /** A cup's standings over the races of its date range that count (classes compared without case or accents). */
  async cupStandings(
    eventor: SeasonEventor,
    guild: SeasonGuild,
    rules: CupRules,
    log?: Logger,
  ): Promise<CupResult & { unavailable: number }> {
    const today = localToday(this.#deps.now(), guild.timeZone);
    // A cup's days still to come have no races yet: nothing is looked for beyond today.
    const to = rules.to < today ? rules.to : today;
    if (rules.from > to) return { races: [], standings: [], unavailable: 0 };
    const { races, unavailable } = await this.races(eventor, guild, rules.from, to, log);
    // A race counts once Eventor has the club's results of it (docs/season.md#cups): on race day,
    // before the organiser uploads them, it would count with nobody's points.
    const resulted = races.filter(({ race }) => race.classes.some((c) => c.runners.length > 0));
    const classes = new Set(rules.classes.map(sameClass));
    return { ...cupStandings(rules, resulted, (name) => classes.has(sameClass(name))), unavailable };
  }
}

/** Class names as a cup compares them: without case, accents or surrounding spaces. */
export function sameClass(name: string): string {
  return fold(name.trim()).replace(/\s+/g, ' ');
}

/** A cup as the commands and the standings posts see it. */
export interface Cup {
  id: number;
  name: string;
  rules: CupRules;
  /** Whether its standings are posted by the cup standings kind (docs/admins.md#cup-standings-posts). */
  postStandings: boolean;
  updatedAt: string;
}

/** A cup as the store keeps it, read; null when its rules are not ones this version can read. */
export function cupOf(row: CupRow): Cup | null {
  try {
    return {
      id: row.id,
      name: row.name,
      rules: CupRules.parse(JSON.parse(row.rules)),
      postStandings: row.postStandings,
      updatedAt: row.updatedAt,
    };
  } catch {
    // Rules this version cannot read (written by a newer one): the cup is left alone, not shown wrong.
    return null;
  }
}

/** The server's cups, by name (any this version cannot read are left out). */
export async function serverCups(store: Pick<StoreParts, 'cups'>, guildId: string): Promise<Cup[]> {
  return (await store.cups.list(guildId)).flatMap((row) => cupOf(row) ?? []);
}
