/**
 * The domain model: what the rest of eventor-bot sees of Eventor, whatever the wire format
 * (Eventor native XML or IOF XML 3.0) a list came in.
 *
 * Conventions, fixed here so that every parser, writer and renderer agrees:
 * - Ids are strings (Eventor ids are per instance and some are anonymised hex); an id Eventor
 *   left empty (a runner without an Eventor account) is `null`, never `""`.
 * - `Instant` is an ISO 8601 UTC string ending in `Z` with whole seconds, e.g. `2023-09-26T15:00:00Z`.
 *   A time from a file that carries no offset and no known zone (some IOF producers) is kept as
 *   the wall-clock text without `Z` (`2015-03-02T12:18:00`), so no machine's zone decides it.
 * - `LocalDate` is `YYYY-MM-DD` (birth dates and other date-only values).
 * - Elapsed times (`Seconds`) are numbers of seconds, fractions allowed (tenths in IOF files).
 * - Optional data that is absent is `null` or an empty array, never `undefined`, so JSON output
 *   and equality checks are stable.
 */
import { z } from 'zod';

export const Id = z.string().min(1);
export const Instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/);
export const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const Seconds = z.number().finite();

/**
 * Eventor's event classification ids (docs/eventor.md#event-classifications) and the level names
 * the model uses for them: the one map of event levels. Its order (by id) is the order levels are
 * offered in; their texts are the `render.level.*` messages (render's `classificationText`).
 */
export const EVENT_CLASSIFICATIONS = {
  '1': 'championship',
  '2': 'national',
  '3': 'district',
  '4': 'local',
  '5': 'club',
  '6': 'international',
} as const;
export type ClassificationId = keyof typeof EVENT_CLASSIFICATIONS;
/** A level Eventor defines, by name. */
export type KnownClassification = (typeof EVENT_CLASSIFICATIONS)[ClassificationId];
export const CLASSIFICATION_IDS = Object.keys(EVENT_CLASSIFICATIONS) as ClassificationId[];
export const KNOWN_CLASSIFICATIONS = Object.values(EVENT_CLASSIFICATIONS) as KnownClassification[];
export const EventClassification = z.enum([...KNOWN_CLASSIFICATIONS, 'unknown']);
export type EventClassification = z.infer<typeof EventClassification>;

/** The level of a classification id; `unknown` for an id Eventor does not define (or none). */
export function classificationOfId(id: string | null): EventClassification {
  return id !== null && Object.hasOwn(EVENT_CLASSIFICATIONS, id)
    ? EVENT_CLASSIFICATIONS[id as ClassificationId]
    : 'unknown';
}

/** The classification id of a level name, or null for a name that is no level. */
export function classificationIdOf(name: string): ClassificationId | null {
  return CLASSIFICATION_IDS.find((id) => EVENT_CLASSIFICATIONS[id] === name) ?? null;
}

/** Eventor's EventStatusId values (docs/eventor.md#event-status). */
export const EVENT_STATUSES = {
  '1': 'applied',
  '2': 'approvedByRegion',
  '3': 'approved',
  '4': 'created',
  '5': 'entryOpened',
  '6': 'entryPaused',
  '7': 'entryClosed',
  '8': 'live',
  '9': 'completed',
  '10': 'canceled',
  '11': 'reported',
} as const;
export const EventStatus = z.enum([
  'applied',
  'approvedByRegion',
  'approved',
  'created',
  'entryOpened',
  'entryPaused',
  'entryClosed',
  'live',
  'completed',
  'canceled',
  'reported',
  'unknown',
]);
export type EventStatus = z.infer<typeof EventStatus>;

export const OrganisationKind = z.enum(['federation', 'district', 'club', 'other']);
export type OrganisationKind = z.infer<typeof OrganisationKind>;

/**
 * Result statuses, in IOF XML 3.0 spelling. Native values map onto these
 * (`MisPunch` -> `MissingPunch`, `SportWithdr` -> `SportingWithdrawal`).
 */
export const ResultStatus = z.enum([
  'OK',
  'Finished',
  'MissingPunch',
  'Disqualified',
  'DidNotFinish',
  'Active',
  'Inactive',
  'OverTime',
  'SportingWithdrawal',
  'NotCompeting',
  'Moved',
  'MovedUp',
  'DidNotStart',
  'DidNotEnter',
  'Cancelled',
]);
export type ResultStatus = z.infer<typeof ResultStatus>;

export const PunchingUnitType = z.enum(['SI', 'Emit', 'emiTag', 'manual', 'other', 'ToePunch', 'Huichang']);
export type PunchingUnitType = z.infer<typeof PunchingUnitType>;

export const Sex = z.enum(['F', 'M', 'B']);

/*
 * The records below are z.lazy: each is built the first time something validates against it, not
 * at import. A process reads a few kinds of answer (a CLI query one), and building every record's
 * schema up front was most of what importing the client cost. A record validates exactly as the
 * z.object inside it.
 */

/** An organisation as referenced from elsewhere: Eventor sends either the id or the full object. */
export const OrganisationRef = z.lazy(() =>
  z.object({
    id: Id.nullable(),
    name: z.string().nullable(),
    shortName: z.string().nullable(),
    countryCode: z.string().nullable(),
  }),
);
export type OrganisationRef = z.infer<typeof OrganisationRef>;

export const ContactDetails = z.lazy(() =>
  z.object({
    emails: z.array(z.string()),
    phones: z.array(z.string()),
    addresses: z.array(
      z.object({
        careOf: z.string().nullable(),
        street: z.string().nullable(),
        zipCode: z.string().nullable(),
        city: z.string().nullable(),
        countryCode: z.string().nullable(),
      }),
    ),
  }),
);
export type ContactDetails = z.infer<typeof ContactDetails>;

export const Organisation = z.lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    shortName: z.string().nullable(),
    mediaName: z.string().nullable(),
    kind: OrganisationKind,
    /** Eventor's OrganisationTypeId as sent; its meaning differs between lists (docs/eventor.md#organisation-types). */
    typeId: z.string().nullable(),
    countryCode: z.string().nullable(),
    parentId: Id.nullable(),
    modifiedAt: Instant.nullable(),
    contact: ContactDetails.nullable(),
  }),
);
export type Organisation = z.infer<typeof Organisation>;

export const PersonName = z.lazy(() =>
  z.object({
    family: z.string(),
    /** Given names joined in `sequence` order. */
    given: z.string(),
  }),
);
export type PersonName = z.infer<typeof PersonName>;

/** A person as others reference them; Person adds what the person's own record holds. */
const personRefFields = () => ({
  id: Id.nullable(),
  name: PersonName,
  sex: z.enum(['F', 'M']).nullable(),
  birthDate: LocalDate.nullable(),
  countryCode: z.string().nullable(),
});

export const PersonRef = z.lazy(() => z.object(personRefFields()));
export type PersonRef = z.infer<typeof PersonRef>;

export const Person = z.lazy(() =>
  z.object({
    ...personRefFields(),
    organisationId: Id.nullable(),
    roles: z.array(z.object({ organisationId: Id.nullable(), roleTypeId: z.string() })),
    externalIds: z.array(z.object({ type: z.string(), id: z.string() })),
    contact: ContactDetails.nullable(),
    modifiedAt: Instant.nullable(),
  }),
);
export type Person = z.infer<typeof Person>;

export const Card = z.lazy(() => z.object({ number: z.string().min(1), type: PunchingUnitType.nullable() }));
export type Card = z.infer<typeof Card>;

export const PreselectedClass = z.lazy(() =>
  z.object({
    sequence: z.number().int(),
    baseClassId: Id.nullable(),
    classShortName: z.string().nullable(),
  }),
);
export type PreselectedClass = z.infer<typeof PreselectedClass>;

export const Competitor = z.lazy(() =>
  z.object({
    competitorId: Id.nullable(),
    personId: Id.nullable(),
    person: PersonRef.nullable(),
    organisationId: Id.nullable(),
    cards: z.array(Card),
    preselectedClasses: z.array(PreselectedClass),
    disciplineId: z.string().nullable(),
    modifiedAt: Instant.nullable(),
  }),
);
export type Competitor = z.infer<typeof Competitor>;

export const EventRace = z.lazy(() =>
  z.object({
    id: Id,
    eventId: Id.nullable(),
    name: z.string().nullable(),
    /** Start of the race; null when Eventor gives no date. */
    date: Instant.nullable(),
    distance: z.string().nullable(),
    lightCondition: z.string().nullable(),
    position: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  }),
);
export type EventRace = z.infer<typeof EventRace>;

export const EntryBreak = z.lazy(() => z.object({ from: Instant.nullable(), to: Instant.nullable() }));
export type EntryBreak = z.infer<typeof EntryBreak>;

export const EventOfficial = z.lazy(() => z.object({ personId: Id.nullable(), roleTypeId: z.string() }));

export const Event = z.lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    form: z.string().nullable(),
    classification: EventClassification,
    classificationId: z.string().nullable(),
    status: EventStatus,
    statusId: z.string().nullable(),
    disciplineIds: z.array(z.string()),
    start: Instant.nullable(),
    finish: Instant.nullable(),
    organisers: z.array(OrganisationRef),
    classTypeIds: z.array(z.string()),
    /** The entry periods as Eventor sends them. */
    entryBreaks: z.array(EntryBreak),
    /**
     * Entry deadlines derived from the breaks: the union of every (from - 1 s) and every to, sorted;
     * the first is normally the ordinary deadline, later ones late entry (docs/eventor.md#entry-deadlines).
     */
    entryDeadlines: z.array(Instant),
    races: z.array(EventRace),
    urls: z.array(z.string()),
    /** The organiser's free-text notice (`Eventor_Message`), raw: escape before showing. */
    message: z.string().nullable(),
    punchingUnitTypes: z.array(z.string()),
    officials: z.array(EventOfficial),
    parentEventId: Id.nullable(),
    /** Every HashTableEntry as sent (keys such as `officialResult_<raceId>`). */
    properties: z.record(z.string(), z.string()),
    attributes: z.array(
      z.object({ id: z.string().nullable(), name: z.string().nullable(), value: z.string().nullable() }),
    ),
    modifiedAt: Instant.nullable(),
  }),
);
export type Event = z.infer<typeof Event>;

/** An event as referenced from a list: the full Event when the document carries it, else only its id. */
export const EventRef = z.lazy(() =>
  z.object({ id: Id.nullable(), name: z.string().nullable(), event: Event.nullable() }),
);
export type EventRef = z.infer<typeof EventRef>;

export const EventDocument = z.lazy(() =>
  z.object({
    id: Id,
    eventId: Id.nullable(),
    name: z.string(),
    url: z.string(),
    type: z.string().nullable(),
    modifiedAt: Instant.nullable(),
  }),
);
export type EventDocument = z.infer<typeof EventDocument>;

export const ClassRaceInfo = z.lazy(() =>
  z.object({
    id: Id.nullable(),
    raceId: Id.nullable(),
    relayLeg: z.number().int().nullable(),
    entries: z.number().int().nullable(),
    starts: z.number().int().nullable(),
    status: z.string().nullable(),
  }),
);

export const EventClass = z.lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    shortName: z.string().nullable(),
    sex: Sex.nullable(),
    minAge: z.number().int().nullable(),
    maxAge: z.number().int().nullable(),
    status: z.string().nullable(),
    classTypeId: z.string().nullable(),
    baseClassId: Id.nullable(),
    numberOfEntries: z.number().int().nullable(),
    teamEntry: z.boolean(),
    numberOfLegs: z.number().int().nullable(),
    /** Fee ids in the order they are applied (only with includeEntryFees). */
    entryFeeIds: z.array(Id),
    races: z.array(ClassRaceInfo),
  }),
);
export type EventClass = z.infer<typeof EventClass>;

/** A class as referenced from a start or result list. */
export const ClassRef = z.lazy(() =>
  z.object({
    id: Id.nullable(),
    name: z.string(),
    shortName: z.string().nullable(),
    /** IOF `resultListMode`: `UnorderedNoTimes` means no places or times may be shown. */
    resultListMode: z.enum(['Default', 'Unordered', 'UnorderedNoTimes']),
  }),
);
export type ClassRef = z.infer<typeof ClassRef>;

export const EntryFee = z.lazy(() =>
  z.object({
    id: Id,
    name: z.string(),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    type: z.string().nullable(),
    valueOperator: z.enum(['fixed', 'percent']),
    taxIncluded: z.boolean().nullable(),
    validFrom: Instant.nullable(),
    validTo: Instant.nullable(),
    birthDateFrom: LocalDate.nullable(),
    birthDateTo: LocalDate.nullable(),
  }),
);
export type EntryFee = z.infer<typeof EntryFee>;

export const Entry = z.lazy(() =>
  z.object({
    id: Id,
    event: EventRef,
    /** Individual entry: the competitor; for a team entry, null and `team` is set. */
    competitor: z
      .object({
        competitorId: Id.nullable(),
        person: PersonRef.nullable(),
        personId: Id.nullable(),
        organisation: OrganisationRef.nullable(),
        cards: z.array(Card),
      })
      .nullable(),
    team: z
      .object({
        name: z.string(),
        organisations: z.array(OrganisationRef),
        members: z.array(
          z.object({ personId: Id.nullable(), organisationId: Id.nullable(), leg: z.number().int().nullable() }),
        ),
      })
      .nullable(),
    /** Class ids in the entry's `sequence` order. */
    classIds: z.array(Id),
    /** Full class names when Eventor sends full EventClass elements. */
    classNames: z.array(z.string()),
    raceIds: z.array(Id),
    bibNumber: z.string().nullable(),
    entryDate: Instant.nullable(),
    entryFeeIds: z.array(Id),
    modifiedAt: Instant.nullable(),
  }),
);
export type Entry = z.infer<typeof Entry>;

export const CompetitorCount = z.lazy(() =>
  z.object({
    eventId: Id,
    raceId: Id.nullable(),
    entries: z.number().int(),
    starts: z.number().int(),
    classes: z.array(z.object({ classId: Id, entries: z.number().int(), starts: z.number().int() })),
    organisations: z.array(z.object({ organisationId: Id, entries: z.number().int(), starts: z.number().int() })),
  }),
);
export type CompetitorCount = z.infer<typeof CompetitorCount>;

/** Course facts, from IOF lists (native lists have none). */
export const Course = z.lazy(() =>
  z.object({
    name: z.string().nullable(),
    length: z.number().nullable(),
    climb: z.number().nullable(),
    controls: z.number().int().nullable(),
  }),
);
export type Course = z.infer<typeof Course>;

/**
 * One start in one race. `raceId` is the Eventor race id (native lists); `raceNumber` the
 * 1-based race number (IOF lists). A single-race list has exactly one start per person.
 */
/** Which race of the event a start or a result is for. */
const raceFields = () => ({
  raceId: Id.nullable(),
  raceNumber: z.number().int().nullable(),
});

/** Who a start or a result belongs to, as both lists name a competitor. */
const competitorFields = () => ({
  person: PersonRef.nullable(),
  organisation: OrganisationRef.nullable(),
});

/** A relay team member: the competitor and the leg they ran. */
const teamMemberFields = () => ({
  ...competitorFields(),
  leg: z.number().int().nullable(),
  legOrder: z.number().int().nullable(),
});

/** Time, time behind, position and status: a standing, whether of a race, a team or overall. */
const standingFields = () => ({
  time: Seconds.nullable(),
  timeBehind: Seconds.nullable(),
  position: z.number().int().nullable(),
  status: ResultStatus,
});

export const RaceStart = z.lazy(() =>
  z.object({
    ...raceFields(),
    startTime: Instant.nullable(),
    bibNumber: z.string().nullable(),
    cards: z.array(Card),
    course: Course.nullable(),
  }),
);
export type RaceStart = z.infer<typeof RaceStart>;

export const PersonStart = z.lazy(() =>
  z.object({
    ...competitorFields(),
    starts: z.array(RaceStart),
  }),
);
export type PersonStart = z.infer<typeof PersonStart>;

export const TeamMemberStart = z.lazy(() =>
  z.object({
    ...teamMemberFields(),
    start: RaceStart,
  }),
);
export type TeamMemberStart = z.infer<typeof TeamMemberStart>;

export const TeamStart = z.lazy(() =>
  z.object({
    name: z.string().nullable(),
    organisations: z.array(OrganisationRef),
    bibNumber: z.string().nullable(),
    startTime: Instant.nullable(),
    members: z.array(TeamMemberStart),
  }),
);
export type TeamStart = z.infer<typeof TeamStart>;

export const ClassStart = z.lazy(() =>
  z.object({
    class: ClassRef,
    numberOfEntries: z.number().int().nullable(),
    courses: z.array(Course),
    persons: z.array(PersonStart),
    teams: z.array(TeamStart),
  }),
);
export type ClassStart = z.infer<typeof ClassStart>;

export const StartList = z.lazy(() =>
  z.object({
    event: EventRef,
    classes: z.array(ClassStart),
  }),
);
export type StartList = z.infer<typeof StartList>;

export const SplitTime = z.lazy(() =>
  z.object({
    controlCode: z.string(),
    /** Cumulative seconds from the start; null when the punch is missing or its time unknown. */
    time: Seconds.nullable(),
    status: z.enum(['OK', 'Missing', 'Additional']),
  }),
);
export type SplitTime = z.infer<typeof SplitTime>;

/** Standing accumulated over several races (stage totals) or, for a relay member, the team after that leg. */
export const OverallResult = z.lazy(() => z.object(standingFields()));
export type OverallResult = z.infer<typeof OverallResult>;

export const RaceResult = z.lazy(() =>
  z.object({
    ...raceFields(),
    bibNumber: z.string().nullable(),
    startTime: Instant.nullable(),
    finishTime: Instant.nullable(),
    ...standingFields(),
    splits: z.array(SplitTime),
    overall: OverallResult.nullable(),
    course: Course.nullable(),
    cards: z.array(Card),
  }),
);
export type RaceResult = z.infer<typeof RaceResult>;

export const PersonResult = z.lazy(() =>
  z.object({
    ...competitorFields(),
    /** One per race; a single-race list has exactly one. */
    results: z.array(RaceResult),
  }),
);
export type PersonResult = z.infer<typeof PersonResult>;

export const TeamMemberResult = z.lazy(() =>
  z.object({
    ...teamMemberFields(),
    /** Leg time, leg time behind (seconds) and leg position; `overall` is the team after this leg. */
    result: RaceResult,
  }),
);
export type TeamMemberResult = z.infer<typeof TeamMemberResult>;

export const TeamResult = z.lazy(() =>
  z.object({
    name: z.string(),
    organisations: z.array(OrganisationRef),
    bibNumber: z.string().nullable(),
    startTime: Instant.nullable(),
    finishTime: Instant.nullable(),
    ...standingFields(),
    members: z.array(TeamMemberResult),
  }),
);
export type TeamResult = z.infer<typeof TeamResult>;

export const ClassResult = z.lazy(() =>
  z.object({
    class: ClassRef,
    numberOfEntries: z.number().int().nullable(),
    numberOfStarts: z.number().int().nullable(),
    courses: z.array(Course),
    persons: z.array(PersonResult),
    teams: z.array(TeamResult),
  }),
);
export type ClassResult = z.infer<typeof ClassResult>;

export const ResultList = z.lazy(() =>
  z.object({
    /** `complete` unless the producer says the list is partial (`snapshot`) or a change set (`delta`). */
    status: z.enum(['complete', 'snapshot', 'delta']),
    event: EventRef,
    classes: z.array(ClassResult),
  }),
);
export type ResultList = z.infer<typeof ResultList>;

export const ActivityAttribute = z.lazy(() =>
  z.object({
    id: Id.nullable(),
    type: z.string().nullable(),
    name: z.string().nullable(),
    values: z.array(z.string()),
  }),
);

export const ActivityRegistration = z.lazy(() =>
  z.object({
    personId: Id.nullable(),
    organisationId: Id.nullable(),
    values: z.array(z.string()),
    modifiedAt: Instant.nullable(),
  }),
);
export type ActivityRegistration = z.infer<typeof ActivityRegistration>;

export const Activity = z.lazy(() =>
  z.object({
    id: Id,
    organisationId: Id.nullable(),
    name: z.string(),
    information: z.string().nullable(),
    startTime: Instant.nullable(),
    registrationDeadline: Instant.nullable(),
    visibleFrom: Instant.nullable(),
    visibleTo: Instant.nullable(),
    url: z.string().nullable(),
    registrationCount: z.number().int().nullable(),
    allowExternalRegistrations: z.boolean().nullable(),
    entryAccessLevel: z.string().nullable(),
    attributes: z.array(ActivityAttribute),
    /** Only with includeRegistrations. */
    registrations: z.array(ActivityRegistration),
    modifiedAt: Instant.nullable(),
  }),
);
export type Activity = z.infer<typeof Activity>;
