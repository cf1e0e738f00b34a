/**
 * The sandbox's in-memory Eventor: a deterministic synthetic federation generated from a seed and
 * a reference "now". Everything is kept as domain-model objects (model.ts) plus sandbox-only
 * fields (API keys, credentials, competitor ids), so responses are computed as domain objects and
 * then serialised by native-xml.ts. Start lists, results and entries of an event are generated
 * lazily (participants.ts), which keeps the 'large' 20,000-runner event free until asked for.
 */
import type {
  Activity,
  Competitor,
  Entry,
  EntryBreak,
  EntryFee,
  Event,
  EventDocument,
  Organisation,
  OrganisationRef,
  Person,
  PersonRef,
  ResultStatus,
} from '../../../src/eventor/model.js';
import { EVENT_CLASSIFICATIONS, EVENT_STATUSES } from '../../../src/eventor/model.js';
import { instantToLocal, localToInstant, toInstant } from '../../../src/time/zones.js';
import {
  CITIES,
  CLUBS,
  DISTRICTS,
  EVENT_KINDS,
  type EventKind,
  FAMILY,
  GIVEN_F,
  GIVEN_M,
  LIGHT_EVENING_MONTHS,
  PLACES,
  STREETS,
} from './names.js';
import { hashTableTime } from './native-xml.js';
import { materialize } from './participants.js';
import { Prng } from './prng.js';
import type {
  EventShape,
  Materialized,
  SandboxClub,
  SandboxEvent,
  SandboxFederation,
  SandboxPerson,
} from './records.js';

export const SANDBOX_TIME_ZONE = 'Europe/Stockholm';
/** Id of the 20,000-runner multi-day event that `size: 'large'` adds. */
export const LARGE_EVENT_ID = '39999';
const DAY = 86_400_000;

export type DatasetSize = 'small' | 'large';

export interface DatasetOptions {
  seed?: number;
  size?: DatasetSize;
  /** The moment the data is generated around. */
  now?: Date;
  /** The sandbox's clock, for when later changes happen (default: the real one). */
  clock?: () => Date;
  /**
   * How many clubs (default and at least the 13 named ones): more are numbered clubs added after
   * them, for a bot serving a whole federation. The default data does not change with this option.
   */
  clubs?: number;
  /**
   * How many members the home club has (default 40): a larger club for the bench's season figures.
   * The default data does not change with this option; other clubs' members keep their draws.
   */
  homeClubMembers?: number;
}

export type { EventShape, Materialized, SandboxClub, SandboxEvent, SandboxPerson } from './records.js';

const LONG_MESSAGE = [
  '#### Viktigt om parkering',
  'Parkering sker **endast** på anvisad plats vid Granberget. Följ skyltning från väg 123.',
  '',
  '- Buss från stationen 08:15 och 08:45',
  '- Barnpassning finns, anmäl till @kansliet senast fredag',
  '- Ta med egen _kompass_ och tejp! <Obs> priser & tider kan ändras',
  '',
  '@everyone: tävlingen är också DM-kval. Se https://example.org/pm?id=42&lang=sv för PM.',
  'Frågor? Kontakta tävlingsledaren. Vi ses i skogen!',
].join('\n');

/** Short organiser messages; `{closes}` is the weekday the ordinary entry closes, as Eventor's message would name it. */
const SHORT_MESSAGES = [
  'Liveresultat på https://example.org/live',
  'Obs! Nytt kartutsnitt för bana 3 & 4.',
  'Anmälan stänger {closes} 23:59. Efteranmälan mot 50 % tillägg.',
] as const;

/** The club activities, each with the day of the week (0 Sunday … 6 Saturday) and local time it starts. */
const THURSDAY_TRAINING = { name: 'Torsdagsträning <intervaller>', weekday: 4, clock: '18:30:00' } as const;
const CAMP = { name: 'Klubbläger i Fjällnäs', weekday: 6, clock: '09:00:00' } as const;
const WORK_DAY = { name: 'Städdag & korvgrillning', weekday: 0, clock: '10:00:00' } as const;

/** Start of an evening event (run in daylight: LIGHT_EVENING_MONTHS) and of a night event (DARK_EVENING_MONTHS), local time. */
const EVENING_START = '18:00:00';
const NIGHT_START = '19:30:00';

const swedishWeekday = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', timeZone: SANDBOX_TIME_ZONE });

/** Days of the week (0 Sunday … 6 Saturday) races are held on: most at the weekend, evening ones midweek. */
const WEEKEND = [6, 0] as const;
const MIDWEEK_EVENINGS = [2, 3] as const;
/** The day a multi-day event starts on, by its number of days: Saturday–Sunday, or Friday–Sunday. */
const MULTI_DAY_START: Record<number, number> = { 2: 6, 3: 5 };

/**
 * A kind of single-race event that fits the level and the month of its day (a spring event in
 * spring): `dayMonth` is the month of the weekend day it would be run on, `nightMonth` that of the
 * midweek evening a night cup would be run on (only in the dark), or null when no night cup fits
 * (a light evening).
 */
function kindFor(
  rng: Prng,
  classificationId: keyof typeof EVENT_CLASSIFICATIONS,
  dayMonth: number,
  nightMonth: number | null,
): EventKind {
  return rng.pick(
    EVENT_KINDS.filter(
      (kind) =>
        kind.classificationIds.includes(classificationId) &&
        (kind.night
          ? nightMonth !== null && (kind.months?.includes(nightMonth) ?? true)
          : (kind.months?.includes(dayMonth) ?? true)),
    ),
  );
}

/** The local date `days` after the local date `date` (YYYY-MM-DD). */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Day of the week of a local date (YYYY-MM-DD): 0 Sunday … 6 Saturday. */
function weekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/** The first local date on or after `date` that falls on `day` (0 Sunday … 6 Saturday). */
function onOrAfter(date: string, day: number): string {
  return addDays(date, (day - weekday(date) + 7) % 7);
}

/**
 * The instants Eventor lists as entry deadlines for these entry breaks: each break's end, and the
 * second before each later break begins (docs/eventor.md#entry-deadlines). The sandbox works them out itself, as
 * Eventor does, rather than borrowing the client's parser: a fault shared by both would go unseen.
 */
function entryDeadlines(breaks: readonly EntryBreak[]): string[] {
  const deadlines = new Set<string>();
  for (const entryBreak of breaks) {
    if (entryBreak.from !== null) deadlines.add(toInstant(Date.parse(entryBreak.from) - 1000));
    if (entryBreak.to !== null) deadlines.add(entryBreak.to);
  }
  return [...deadlines].sort();
}

/**
 * A change the organiser makes to an event in Eventor: a new name, a new first day (every day of the
 * event moves by as many days, keeping its local times), or a new status (`EventStatusId`, '10'
 * cancelled: docs/eventor.md#event-status).
 */
export interface EventChange {
  name?: string;
  /** The event's new first day, `YYYY-MM-DD` in the sandbox's zone. */
  date?: string;
  statusId?: keyof typeof EVENT_STATUSES;
}

export class SandboxDataset implements SandboxFederation {
  readonly seed: number;
  readonly size: DatasetSize;
  readonly now: Date;
  /** When a change made later (a correction, a touched event) happens. */
  readonly clock: () => Date;
  readonly homeClubMembers: number;
  readonly federation: Organisation;
  readonly districts: Organisation[] = [];
  readonly clubs: SandboxClub[] = [];
  readonly events: SandboxEvent[] = [];
  readonly activities: Activity[] = [];
  readonly homeClub: SandboxClub;
  /**
   * Called on each event's generated classes, entries, start list and results, when they are
   * generated: lets a test plant text (crafted class names, say) in lists made later.
   */
  onMaterialize: ((ev: SandboxEvent, materialized: Materialized) => void) | null = null;

  private readonly orgById = new Map<string, Organisation>();
  private readonly clubById = new Map<string, SandboxClub>();
  private readonly clubByKey = new Map<string, SandboxClub>();
  private readonly personById = new Map<string, SandboxPerson>();
  private readonly personByCompetitorId = new Map<string, SandboxPerson>();
  private readonly eventById = new Map<string, SandboxEvent>();
  /** Changes planned for a later moment of the clock, soonest first. */
  private readonly pendingChanges: { at: number; eventId: string; change: EventChange }[] = [];

  constructor(options: DatasetOptions = {}) {
    this.seed = options.seed ?? 1;
    this.size = options.size ?? 'small';
    // Whole seconds, so every Instant derived from it is valid.
    this.now = new Date(Math.floor((options.now ?? new Date()).getTime() / 1000) * 1000);
    this.clock = options.clock ?? (() => new Date());
    this.homeClubMembers = options.homeClubMembers ?? 40;
    const rng = Prng.derive(this.seed, 'organisations');
    this.federation = this.addOrganisation(
      {
        id: '1',
        name: 'Sandlådans Orienteringsförbund',
        shortName: 'SOFS',
        kind: 'federation',
        parentId: null,
        countryCode: 'SWE',
      },
      rng,
    );
    DISTRICTS.forEach((d, i) => {
      this.districts.push(
        this.addOrganisation(
          {
            id: String(11 + i),
            name: d.name,
            shortName: d.short,
            kind: 'district',
            parentId: '1',
            countryCode: d.country,
          },
          rng,
        ),
      );
    });
    const numbered = Array.from({ length: Math.max(0, (options.clubs ?? 0) - CLUBS.length) }, (_, n) => {
      const name = `Klubb ${CLUBS.length + n + 1} OK`;
      return [name, name] as const;
    });
    [...CLUBS, ...numbered].forEach(([name, short], i) => {
      const district = this.districts[i % this.districts.length]!;
      const org = this.addOrganisation(
        {
          id: String(101 + i),
          name,
          shortName: short,
          kind: 'club',
          parentId: district.id,
          countryCode: name.includes('OL') ? 'NOR' : 'SWE',
        },
        rng,
      );
      const club: SandboxClub = {
        id: org.id,
        name: org.name,
        organisation: org,
        apiKey: Prng.derive(this.seed, 'key', org.id).hex(32),
        members: [],
      };
      this.clubs.push(club);
      this.clubById.set(org.id, club);
      this.clubByKey.set(club.apiKey, club);
    });
    this.homeClub = this.clubs[0]!;
    this.generatePersons();
    this.generateEvents();
    if (this.size === 'large') this.generateLargeEvent();
    this.generateActivities();
  }

  // --- lookups -------------------------------------------------------------------------------

  organisation(id: string): Organisation | undefined {
    return this.orgById.get(id);
  }
  get organisations(): Organisation[] {
    return [...this.orgById.values()];
  }
  club(id: string): SandboxClub | undefined {
    return this.clubById.get(id);
  }
  keyFor(clubId: string): string {
    const club = this.clubById.get(clubId);
    if (!club) throw new Error(`no sandbox club ${clubId}`);
    return club.apiKey;
  }
  clubForKey(apiKey: string): SandboxClub | undefined {
    return this.clubByKey.get(apiKey);
  }
  /** Revokes a club's key: Eventor then refuses it (403) like any unknown key, until restoreKey. */
  revokeKey(clubId: string): void {
    this.clubByKey.delete(this.keyFor(clubId));
  }
  restoreKey(clubId: string): void {
    this.clubByKey.set(this.keyFor(clubId), this.clubById.get(clubId)!);
  }
  person(id: string): SandboxPerson | undefined {
    return this.personById.get(id);
  }
  personByCompetitor(competitorId: string): SandboxPerson | undefined {
    return this.personByCompetitorId.get(competitorId);
  }
  get persons(): SandboxPerson[] {
    return [...this.personById.values()];
  }
  event(id: string): SandboxEvent | undefined {
    return this.eventById.get(id);
  }
  /** Whether the event has results (a past, not cancelled event). */
  hasResults(eventId: string): boolean {
    return this.eventById.get(eventId)?.hasResults ?? false;
  }
  /** Whether the event's start list (draw) is published. */
  hasStartList(eventId: string): boolean {
    return this.eventById.get(eventId)?.hasStartList ?? false;
  }
  /** The person with these web credentials, if any. */
  authenticate(username: string, password: string): SandboxPerson | undefined {
    for (const p of this.personById.values()) if (p.username === username && p.password === password) return p;
    return undefined;
  }

  /** The event's entries made by `at` (default the sandbox clock): what the API shows. */
  entriesAt(ev: SandboxEvent, at: Date = this.clock()): Entry[] {
    const limit = at.getTime();
    return this.details(ev).entries.filter((entry) => entry.entryDate === null || Date.parse(entry.entryDate) <= limit);
  }

  /** Classes, entries, start list and results of an event, generated on first use. */
  details(ev: SandboxEvent): Materialized {
    if (ev.materialized === null) {
      ev.materialized = materialize(this, ev);
      this.onMaterialize?.(ev, ev.materialized);
    }
    return ev.materialized;
  }
  /** Club ids selected by an organisation id: a club itself, a district's clubs, the federation's all. */
  expandOrganisation(id: string): string[] {
    const org = this.orgById.get(id);
    if (!org) return [id];
    if (org.kind === 'club') return [id];
    const out = [id];
    for (const o of this.orgById.values()) {
      if (o.parentId === id) out.push(...this.expandOrganisation(o.id));
    }
    return out;
  }
  orgRef(id: string): OrganisationRef {
    const o = this.orgById.get(id);
    return { id, name: o?.name ?? null, shortName: o?.shortName ?? null, countryCode: o?.countryCode ?? null };
  }

  // --- mutation helpers for tests ------------------------------------------------------------

  /** Marks an event as modified (for modify-date filters); returns the new modify time. */
  touchEvent(eventId: string, at: Date = this.clock()): string {
    const ev = this.eventById.get(eventId);
    if (!ev) throw new Error(`no sandbox event ${eventId}`);
    ev.event.modifiedAt = toInstant(at.getTime());
    return ev.event.modifiedAt;
  }

  /**
   * Changes one runner's result in a past event (a correction after a protest), re-ranks the
   * class and touches the event's modify date.
   */
  correctResult(
    eventId: string,
    personId: string,
    change: { status?: ResultStatus; time?: number },
    raceIndex = 0,
  ): void {
    const ev = this.eventById.get(eventId);
    if (!ev) throw new Error(`no sandbox event ${eventId}`);
    const details = this.details(ev);
    if (!details.resultList) throw new Error(`event ${eventId} has no results`);
    for (const cr of details.resultList.classes) {
      const pr = cr.persons.find((p) => p.person?.id === personId);
      const r = pr?.results[raceIndex];
      if (!r) continue;
      if (change.status !== undefined) r.status = change.status;
      if (change.time !== undefined) r.time = change.time;
      details.rerank(cr, raceIndex);
      this.touchEvent(eventId);
      return;
    }
    throw new Error(`person ${personId} has no result in event ${eventId}`);
  }

  /**
   * The organiser changes an event's name, date or status (`EventChange`) at `at` on the sandbox
   * clock (default: now). Until then reads show the event as it was; from then on `/events`,
   * `/event/{id}` and the lists show the change, and the event's modify date is that moment (so
   * modify-date filters find it). Entry deadlines stay where they were, and a start list already
   * drawn keeps its start times.
   */
  changeEvent(eventId: string, change: EventChange, at: Date = this.clock()): void {
    const ev = this.eventById.get(eventId);
    if (!ev) throw new Error(`no sandbox event ${eventId}`);
    if (change.name !== undefined && change.name.trim() === '') throw new Error('an event name cannot be empty');
    if (change.date !== undefined && localToInstant(change.date, '00:00:00', SANDBOX_TIME_ZONE) === null)
      throw new Error(`not a date: ${change.date}`);
    if (change.statusId !== undefined && !(change.statusId in EVENT_STATUSES))
      throw new Error(`no EventStatusId ${String(change.statusId)}`);
    this.pendingChanges.push({ at: at.getTime(), eventId, change: { ...change } });
    this.pendingChanges.sort((a, b) => a.at - b.at);
    this.applyDueChanges();
  }

  /** Applies the planned changes whose moment the clock has reached; the server calls it on every request. */
  applyDueChanges(): void {
    const now = this.clock().getTime();
    while (this.pendingChanges.length > 0 && this.pendingChanges[0]!.at <= now) {
      const { at, eventId, change } = this.pendingChanges.shift()!;
      const ev = this.eventById.get(eventId)!;
      const e = ev.event;
      if (change.name !== undefined) {
        e.name = change.name;
        ev.name = change.name;
      }
      if (change.statusId !== undefined) {
        e.statusId = change.statusId;
        e.status = EVENT_STATUSES[change.statusId];
      }
      if (change.date !== undefined && e.start !== null) {
        const first = instantToLocal(e.start, SANDBOX_TIME_ZONE).date;
        const days = Math.round((Date.parse(`${change.date}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY);
        const move = (instant: string): string => {
          const local = instantToLocal(instant, SANDBOX_TIME_ZONE);
          const day = new Date(Date.parse(`${local.date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
          return this.at(day, local.clock);
        };
        e.start = move(e.start);
        if (e.finish !== null) e.finish = move(e.finish);
        for (const race of e.races) if (race.date !== null) race.date = move(race.date);
      }
      this.touchEvent(eventId, new Date(at));
    }
  }

  // --- generation ----------------------------------------------------------------------------

  private addOrganisation(
    o: {
      id: string;
      name: string;
      shortName: string;
      kind: Organisation['kind'];
      parentId: string | null;
      countryCode: string;
    },
    rng: Prng,
  ): Organisation {
    const slug = o.shortName
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9]+/g, '');
    const org: Organisation = {
      id: o.id,
      name: o.name,
      shortName: o.shortName,
      mediaName: o.name,
      kind: o.kind,
      typeId: { federation: '1', district: '2', club: '3', other: '4' }[o.kind],
      countryCode: o.countryCode,
      parentId: o.parentId,
      modifiedAt: toInstant(
        Date.UTC(2015 + rng.int(0, 8), rng.int(0, 11), rng.int(1, 28), rng.int(6, 21), rng.int(0, 59), rng.int(0, 59)),
      ),
      contact: {
        emails: [`kansli@${slug}.example`],
        phones: [`+46 ${rng.int(10, 99)}-${rng.int(100000, 999999)}`],
        addresses: [
          {
            careOf: null,
            street: `${rng.pick(STREETS)} ${rng.int(1, 60)}`,
            zipCode: String(rng.int(10000, 99999)),
            city: rng.pick(CITIES),
            countryCode: o.countryCode,
          },
        ],
      },
    };
    this.orgById.set(org.id, org);
    return org;
  }

  private generatePersons(): void {
    let personId = 10001;
    let competitorId = 700001;
    const nowYear = Number(instantToLocal(this.now, SANDBOX_TIME_ZONE).date.slice(0, 4));
    for (const club of this.clubs) {
      const rng = Prng.derive(this.seed, 'members', club.organisation.id);
      const count = club === this.clubs[0] ? this.homeClubMembers : rng.int(14, 24);
      for (let i = 0; i < count; i++) {
        const sex = rng.chance(0.5) ? ('F' as const) : ('M' as const);
        const family = rng.pick(FAMILY);
        const given = rng.pick(sex === 'F' ? GIVEN_F : GIVEN_M);
        // A spread from 9-year-olds to veterans, weighted to adults.
        const age = rng.chance(0.3) ? rng.int(9, 20) : rng.int(21, 78);
        const birthDate = `${nowYear - age}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
        const id = String(personId++);
        const ascii = (s: string): string =>
          s
            .toLowerCase()
            .normalize('NFD')
            .replace(/[^a-z]/g, '');
        const cardType = rng.pick(['SI', 'SI', 'Emit', 'emiTag'] as const);
        const cardNumber =
          cardType === 'SI' ? String(rng.int(2_000_000, 9_999_999)) : String(rng.int(100_000, 999_999));
        const ref: PersonRef = {
          id,
          name: { family, given },
          sex,
          birthDate,
          countryCode: club.organisation.countryCode,
        };
        const modifiedAt = toInstant(this.now.getTime() - rng.int(2, 900) * DAY - rng.int(0, 86_399) * 1000);
        const person: Person = {
          ...ref,
          organisationId: club.organisation.id,
          roles: [{ organisationId: club.organisation.id, roleTypeId: i === 0 ? '2' : '1' }],
          externalIds: rng.chance(0.3) ? [{ type: '1', id: `IOF${id}` }] : [],
          contact: {
            emails: [`${ascii(given)}.${ascii(family)}${id.slice(-2)}@mail.example`],
            phones: rng.chance(0.7) ? [`+46 70-${rng.int(1000000, 9999999)}`] : [],
            addresses: [
              {
                careOf: null,
                street: `${rng.pick(STREETS)} ${rng.int(1, 90)}`,
                zipCode: String(rng.int(10000, 99999)),
                city: rng.pick(CITIES),
                countryCode: ref.countryCode,
              },
            ],
          },
          modifiedAt,
        };
        const short = `${sex === 'F' ? 'D' : 'H'}${age < 21 ? Math.min(20, age + (age % 2)) : 21}`;
        const competitor: Competitor = {
          competitorId: String(competitorId++),
          personId: id,
          person: ref,
          organisationId: club.organisation.id,
          cards: [{ number: cardNumber, type: cardType }],
          preselectedClasses: [{ sequence: 1, baseClassId: null, classShortName: short }],
          disciplineId: '1',
          modifiedAt,
        };
        const member: SandboxPerson = {
          person,
          competitor,
          hasSettings: !rng.chance(0.15),
          clubId: club.organisation.id,
          username: `${ascii(given)}.${ascii(family)}${id.slice(-3)}`,
          password: `pw-${rng.hex(10)}`,
        };
        club.members.push(member);
        this.personById.set(id, member);
        this.personByCompetitorId.set(member.competitor.competitorId!, member);
      }
    }
  }

  /**
   * The day nearest `offset` (days from now) that falls on one of `weekdays`, on the same side of
   * today (a past event stays past, a coming one coming, today's stays on or before today); of two
   * as near, the later.
   */
  private nearestDay(offset: number, weekdays: readonly number[]): number {
    for (let distance = 0; distance <= 7; distance++) {
      for (const day of [offset + distance, offset - distance]) {
        if (offset > 0 ? day < 1 : offset < 0 ? day > -1 : day > 0) continue;
        if (weekdays.includes(weekday(this.localDay(day)))) return day;
      }
    }
    return offset;
  }

  private localMonth(offsetDays: number): number {
    return Number(this.localDay(offsetDays).slice(5, 7));
  }

  private localDay(offsetDays: number): string {
    return instantToLocal(new Date(this.now.getTime() + offsetDays * DAY), SANDBOX_TIME_ZONE).date;
  }

  private at(date: string, clock: string): string {
    return localToInstant(date, clock, SANDBOX_TIME_ZONE)!;
  }

  private generateEvents(): void {
    const rng = Prng.derive(this.seed, 'events');
    const nowMs = this.now.getTime();
    let eventId = 30001;
    let raceId = 40001;
    let docId = 60001;
    let feeId = 80001;
    const total = 38;
    let closedPlaced = false;
    for (let i = 0; i < total; i++) {
      // The day in the calendar the event falls near; it is then moved to a day races are held on.
      const near = -60 + Math.round((i * 180) / total) + rng.int(0, 3);
      // The first future event is the next one: entry closed and the draw out (a start list, no results).
      const closed = !closedPlaced && near > 0;
      if (closed) closedPlaced = true;
      const base = closed ? 1 : near;
      const shape: EventShape = i % 7 === 3 ? 'relay' : i % 6 === 2 ? 'multi' : 'single';
      const classificationId = String((i % 6) + 1) as keyof typeof EVENT_CLASSIFICATIONS;
      const id = String(eventId++);
      const raceCount = shape === 'multi' ? rng.int(2, 3) : 1;
      const weekend = this.nearestDay(base, shape === 'multi' ? [MULTI_DAY_START[raceCount]!] : WEEKEND);
      const midweek = this.nearestDay(base, MIDWEEK_EVENINGS);
      // Local and club events are run on a midweek evening when it is light then; the others at the weekend by day.
      const evening =
        (classificationId === '4' || classificationId === '5') &&
        (LIGHT_EVENING_MONTHS as readonly number[]).includes(this.localMonth(midweek));
      const kind =
        shape === 'single'
          ? evening
            ? kindFor(rng, classificationId, this.localMonth(midweek), null)
            : kindFor(rng, classificationId, this.localMonth(weekend), this.localMonth(midweek))
          : null;
      // Run in the dark only when it is dark (a night kind is picked only in those months), on a midweek evening.
      const night = kind?.night === true;
      const offset = evening || night ? midweek : weekend;
      const day = this.localDay(offset);
      const startClock = night ? NIGHT_START : evening ? EVENING_START : '10:00:00';
      const races = [];
      // The stages of a multi-day event are in one area: the first stage anywhere, the others within a few kilometres of it.
      let area: { lat: number; lon: number } | null = null;
      for (let r = 0; r < raceCount; r++) {
        const raceDay = this.localDay(offset + r);
        const distance = shape === 'relay' ? 'Relay' : (kind?.distance ?? rng.pick(['Sprint', 'Middle', 'Long']));
        const [u, v] = [rng.next(), rng.next()];
        const position: { lat: number; lon: number } =
          area === null
            ? { lat: 59 + u * 4, lon: 13 + v * 5 }
            : { lat: area.lat + (u - 0.5) * 0.05, lon: area.lon + (v - 0.5) * 0.1 };
        area ??= position;
        races.push({
          id: String(raceId++),
          eventId: id,
          name: raceCount > 1 ? `Etapp ${r + 1}` : null,
          date: this.at(raceDay, startClock),
          distance,
          lightCondition: night ? 'Night' : 'Day',
          position: { lat: Math.round(position.lat * 1e6) / 1e6, lon: Math.round(position.lon * 1e6) / 1e6 },
        });
      }
      const start = races[0]!.date;
      const lastDay = this.localDay(offset + raceCount - 1);
      const finish = this.at(lastDay, night ? '22:00:00' : evening ? '21:00:00' : '15:00:00');
      // Ordinary entry closes a week before, late entry two days before (docs/eventor.md#entry-deadlines); for the next
      // event, late entry closed yesterday at the latest, as its draw is out.
      const lateToDay = closed ? Math.min(offset - 2, -1) : offset - 2;
      const ordinaryTo = this.at(this.localDay(Math.min(offset - 7, lateToDay - 2)), '23:59:59');
      const lateFrom = toInstant(Date.parse(ordinaryTo) + 1000);
      const lateTo = this.at(this.localDay(lateToDay), '23:59:59');
      const entryBreaks: EntryBreak[] = [
        { from: null, to: ordinaryTo },
        { from: lateFrom, to: lateTo },
      ];
      const startMs = Date.parse(start);
      const past = Date.parse(finish) < nowMs;
      let statusId: keyof typeof EVENT_STATUSES;
      if (i === 4 || i === total - 5) statusId = '10';
      else if (past) statusId = i % 5 === 0 ? '11' : '9';
      else if (startMs - nowMs > 75 * DAY) statusId = i % 2 === 0 ? '3' : '4';
      else if (i === total - 9) statusId = '6';
      else if (nowMs <= Date.parse(lateTo)) statusId = '5';
      else statusId = '7';
      const cancelled = statusId === '10';
      const club1 = this.clubs[rng.int(0, this.clubs.length - 1)]!.organisation;
      const organisers: OrganisationRef[] = [this.orgRef(club1.id)];
      if (rng.chance(0.2)) {
        const club2 = this.clubs.find((c) => c.organisation.id !== club1.id && rng.chance(0.3))?.organisation;
        if (club2) organisers.push(this.orgRef(club2.id));
      }
      if (classificationId === '1' && rng.chance(0.5)) organisers.push(this.orgRef(club1.parentId!));
      // The name says "national" exactly when the event is at national level.
      const place = rng.pick(PLACES);
      const national = classificationId === '2';
      const name =
        shape === 'relay'
          ? national
            ? `Nationella stafetten ${place}`
            : `${place} Stafetten`
          : shape === 'multi'
            ? `${place} ${raceCount}-dagars${national ? ', nationell' : ''}`
            : `${place} ${kind!.name}`;
      const closes = swedishWeekday.format(new Date(ordinaryTo));
      const message =
        i % 5 === 1 ? LONG_MESSAGE : i % 3 === 0 ? rng.pick(SHORT_MESSAGES).replace('{closes}', closes) : null;
      const properties: Record<string, string> = {};
      if (message !== null) properties['Eventor_Message'] = message;
      const hasResults = past && !cancelled;
      if (hasResults) {
        for (const r of races)
          properties[`officialResult_${r.id}`] = hashTableTime(
            toInstant(Date.parse(r.date) + 3 * 3600_000 + rng.int(0, 3599) * 1000),
          );
      }
      const modifiedAt = toInstant(
        Math.min(nowMs - 3600_000, hasResults ? Date.parse(finish) + 4 * 3600_000 : nowMs - rng.int(1, 30) * DAY) -
          rng.int(0, 3599) * 1000,
      );
      const event: Event = {
        id,
        name,
        form: shape === 'relay' ? 'RelaySingleDay' : shape === 'multi' ? 'IndMultiDay' : 'IndSingleDay',
        classification: EVENT_CLASSIFICATIONS[classificationId],
        classificationId,
        status: EVENT_STATUSES[statusId],
        statusId,
        disciplineIds: ['1'],
        start,
        finish,
        organisers,
        classTypeIds: ['2'],
        entryBreaks,
        entryDeadlines: entryDeadlines(entryBreaks),
        races,
        urls:
          i % 4 === 0
            ? [
                `https://${club1
                  .shortName!.toLowerCase()
                  .normalize('NFD')
                  .replace(/[^a-z0-9]+/g, '')}.example/tavling/${id}`,
              ]
            : [],
        message,
        punchingUnitTypes: [i % 3 === 0 ? 'Emit' : 'SI'],
        officials: [{ personId: this.clubById.get(club1.id)!.members[0]!.person.id, roleTypeId: '101' }],
        parentEventId: null,
        properties,
        attributes: evening || night ? [{ id: '7', name: 'Kvällstävling', value: null }] : [],
        modifiedAt,
      };
      const draw = !cancelled && (closed || startMs - 3 * DAY < nowMs);
      const youthBorn = `${Number(day.slice(0, 4)) - 16}-01-01`;
      const amount = { '1': 260, '2': 220, '3': 180, '4': 110, '5': 50, '6': 300 }[classificationId];
      const fees: EntryFee[] = [
        {
          id: String(feeId++),
          name: 'Anmälningsavgift vuxen',
          amount,
          currency: 'SEK',
          type: 'adult',
          valueOperator: 'fixed',
          taxIncluded: false,
          validFrom: null,
          validTo: lateTo,
          birthDateFrom: null,
          birthDateTo: null,
        },
        {
          id: String(feeId++),
          name: 'Anmälningsavgift ungdom',
          amount: Math.round(amount / 2),
          currency: 'SEK',
          type: 'youth',
          valueOperator: 'fixed',
          taxIncluded: false,
          validFrom: null,
          validTo: lateTo,
          birthDateFrom: youthBorn,
          birthDateTo: null,
        },
        {
          id: String(feeId++),
          name: 'Efteranmälningsavgift',
          amount: 50,
          currency: null,
          type: 'notSpecified',
          valueOperator: 'percent',
          taxIncluded: false,
          validFrom: lateFrom,
          validTo: lateTo,
          birthDateFrom: null,
          birthDateTo: null,
        },
      ];
      const documents: EventDocument[] = [
        {
          id: String(docId++),
          eventId: id,
          name: 'Inbjudan',
          url: `https://files.sandbox.example/Documents/Event/${docId}/Inbjudan`,
          type: 'Invitation',
          modifiedAt: toInstant(Date.parse(ordinaryTo) - 30 * DAY),
        },
      ];
      if (draw)
        documents.push({
          id: String(docId++),
          eventId: id,
          name: 'PM & startlista',
          url: `https://files.sandbox.example/Documents/Event/${docId}/PM`,
          type: 'Program',
          modifiedAt: toInstant(startMs - 3 * DAY),
        });
      const ev: SandboxEvent = {
        id,
        name,
        event,
        shape,
        ages: kind?.ages ?? 'all',
        fees,
        documents,
        hasStartList: draw,
        hasResults,
        syntheticRunners: 0,
        materialized: null,
      };
      this.events.push(ev);
      this.eventById.set(id, ev);
    }
  }

  /** The 'large' knob: a 20,000-runner three-day event, Friday to Sunday, that ended ten days ago or more. */
  private generateLargeEvent(): void {
    const template = this.events.find((e) => e.shape === 'multi' && e.hasResults) ?? this.events[0]!;
    const id = LARGE_EVENT_ID;
    // The Sunday ten days ago, or the one before it.
    const lastDay = -10 - weekday(this.localDay(-10));
    const races = [0, 1, 2].map((r) => ({
      id: String(49990 + r),
      eventId: id,
      name: `Etapp ${r + 1}`,
      date: this.at(this.localDay(lastDay - 2 + r), '09:00:00'),
      distance: r === 1 ? 'Middle' : 'Long',
      lightCondition: 'Day',
      position: { lat: 61.5, lon: 15.1 },
    }));
    const event: Event = {
      ...template.event,
      id,
      name: 'Sandlådan 3-dagars, nationell (stor)',
      form: 'IndMultiDay',
      classification: 'national',
      classificationId: '2',
      status: 'completed',
      statusId: '9',
      start: races[0]!.date,
      finish: this.at(this.localDay(lastDay), '16:00:00'),
      races,
      organisers: [this.orgRef(this.clubs[1]!.organisation.id)],
      properties: Object.fromEntries(
        races.map((r) => [`officialResult_${r.id}`, hashTableTime(toInstant(Date.parse(r.date) + 8 * 3600_000))]),
      ),
      message: null,
      attributes: [],
      modifiedAt: this.at(this.localDay(lastDay), '20:00:00'),
    };
    const ev: SandboxEvent = {
      id,
      name: event.name,
      event,
      shape: 'multi',
      ages: 'all',
      fees: template.fees,
      documents: [],
      hasStartList: true,
      hasResults: true,
      syntheticRunners: 20_000,
      materialized: null,
    };
    this.events.push(ev);
    this.eventById.set(id, ev);
  }

  private generateActivities(): void {
    let activityId = 90001;
    let attributeId = 1;
    for (const club of this.clubs) {
      const rng = Prng.derive(this.seed, 'activities', club.organisation.id);
      const n = club === this.homeClub ? 8 : 3;
      for (let i = 0; i < n; i++) {
        const offset = -30 + Math.round((i * 90) / n) + rng.int(0, 4);
        // Each on the day of the week it is held: the training its name says on Thursday evening,
        // the camp from Saturday morning, the work day on a Sunday.
        const kind = i % 3 === 1 ? CAMP : i % 3 === 2 ? WORK_DAY : THURSDAY_TRAINING;
        const startTime = this.at(onOrAfter(this.localDay(offset), kind.weekday), kind.clock);
        const attributes = [
          { id: String(attributeId++), type: 'RadioButtons', name: 'Äter du middag efteråt?', values: ['Ja', 'Nej'] },
          { id: String(attributeId++), type: 'Text', name: 'Övrigt (allergier m.m.)', values: [] },
        ];
        const registrations = club.members
          .filter(() => rng.chance(0.25))
          .map((m) => ({
            personId: m.person.id,
            organisationId: club.organisation.id,
            // One value per attribute in order; an unanswered free-text attribute has no value at all.
            values: rng.chance(0.2)
              ? [rng.chance(0.6) ? 'Ja' : 'Nej', 'Glutenfri & laktosfri']
              : [rng.chance(0.6) ? 'Ja' : 'Nej'],
            modifiedAt: toInstant(Date.parse(startTime) - rng.int(2, 20) * DAY),
          }));
        const id = String(activityId++);
        this.activities.push({
          id,
          organisationId: club.organisation.id,
          name: kind.name,
          information: i % 2 === 0 ? 'Samling vid klubbstugan.\nTa med pannlampa!' : null,
          startTime,
          registrationDeadline: toInstant(Date.parse(startTime) - DAY),
          visibleFrom: toInstant(Date.parse(startTime) - 40 * DAY),
          visibleTo: toInstant(Date.parse(startTime) + 7 * DAY),
          url: `https://activities.sandbox.example/Activity/${id}`,
          registrationCount: registrations.length,
          allowExternalRegistrations: i % 2 === 1,
          entryAccessLevel: 'LoggedIn',
          attributes,
          registrations,
          modifiedAt: toInstant(Date.parse(startTime) - 41 * DAY),
        });
      }
    }
  }
}
