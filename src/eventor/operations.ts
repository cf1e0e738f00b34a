/**
 * Every operation of Eventor's API (docs/eventor.md#operations), keyed by its CLI name: method,
 * path, parameters (zod, with Eventor's names), the root element to expect, the parser and the
 * cache time. Parameters are checked and normalised here, before anything is sent: a bad input is a
 * ValidationError naming the parameter, and no request reaches Eventor.
 *
 * Required flags follow Eventor's documentation, except where it is known to be wrong
 * (docs/eventor.md#required-parameters-the-documentation-marks-optional): `starts/event` and
 * `results/event` need `eventId`, `starts|results/person` need `personId`, and
 * `starts|results/organisation` need `eventId` in practice. Without them Eventor either fails or
 * would return everything, so we ask for them up front rather than let a CLI user wait for an
 * error or a huge answer.
 */
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { z } from 'zod';
import { EventorError, InvalidResponse, ValidationError } from './errors.js';
import type {
  Activity,
  Competitor,
  CompetitorCount,
  Entry,
  EntryFee,
  Event,
  EventClass,
  EventDocument,
  Organisation,
  Person,
  ResultList,
  StartList,
} from './model.js';
import {
  Competitor as CompetitorSchema,
  classificationIdOf,
  EVENT_CLASSIFICATIONS,
  KNOWN_CLASSIFICATIONS,
} from './model.js';
import { serializeCompetitor } from './native/competitor-xml.js';
import { formatQueryDateTime } from './time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface ParseContext {
  /** The zone of native times in this response: 'UTC' when the client asked for it. */
  timeZone: string;
  /** The instance's own zone, the fallback for IOF times without an offset. */
  nativeTimeZone: string;
}

export interface OperationDef<S extends z.ZodType = z.ZodType, R = unknown> {
  readonly name: string;
  readonly method: 'GET' | 'PUT';
  /** Below `/api`, with `{name}` for path parameters. */
  readonly path: string;
  readonly summary: string;
  readonly params: S;
  readonly parameterNames: readonly string[];
  readonly required: readonly string[];
  readonly pathParams: readonly string[];
  /** Parameters sent as HTTP headers (secret: never in the URL, a log or a cache key). */
  readonly headerParams: Readonly<Record<string, string>>;
  /** Local name of the document element Eventor answers with. */
  readonly root: string;
  readonly format: 'native' | 'iofxml';
  readonly cacheTtlMs: number;
  /** The most bytes its answer may have on the wire (RESPONSE CAPS below); the transport scales it. */
  readonly maxResponseBytes: number;
  /** Whether identical calls in flight may share one request. */
  readonly coalesce: boolean;
  /**
   * Whether the answer is the same whichever club's key asks, so one request and one cached
   * answer can serve every key (http.ts keeps key-bound answers apart per key).
   */
  readonly keyIndependent: boolean;
  /** Flags that, when `true`, make a key-independent operation's answer key-bound after all. */
  readonly keyBoundWith: readonly string[];
  /** The answer must not appear in errors or logs (single-use login links). */
  readonly secretResponse: boolean;
  /** Cached operations whose answers this one changes. */
  readonly invalidates: readonly string[];
  /** Why a parameter is required although Eventor's documentation marks it optional. */
  readonly note: string | null;
  readonly body: ((params: Record<string, unknown>) => string) | null;
  /**
   * The parser of its answer, loaded with the module that holds it on the operation's first
   * answer (parseResponse): a process that never reads IOF XML or start lists never loads their
   * readers, and a CLI query loads the one it needs.
   */
  readonly parser: () => Promise<(xml: string, context: ParseContext) => R>;
}

// ---------------------------------------------------------------------------------------------
// Parameter kinds. Each accepts the forms a TypeScript caller or a CLI user naturally writes and
// turns them into the exact text Eventor expects. Messages never echo the value (it may be secret).

/** Thrown by a converter and turned into a zod issue by `kind`, so a converter stops at its first problem. */
class Problem {
  constructor(readonly message: string) {}
}

function fail(message: string): never {
  throw new Problem(message);
}

/** A parameter kind: a typed input and a converter to the wire text. */
function kind<I, O = string>(convert: (value: unknown) => O) {
  return z.custom<I>().transform((value, ctx) => {
    try {
      return convert(value);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });
}

function idText(value: unknown, what = 'an id'): string {
  if (value === undefined || value === null) return fail('is required');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return fail(`must be ${what}: a whole number 0 or more`);
    return String(value);
  }
  if (typeof value !== 'string') return fail(`must be ${what} (a number or a text)`);
  const text = value.trim();
  if (text === '') return fail(`must be ${what}, not empty`);
  if (text.includes(',')) return fail(`must be a single id (a comma is not allowed)`);
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return fail(`must be ${what} without spaces or control characters`);
  if (text.length > 64) return fail(`must be ${what} of at most 64 characters`);
  // Eventor's ids are whole numbers; anything else comes back as a 400 that blames no parameter.
  if (!/^\d+$/.test(text))
    return fail(`must be ${what}: a whole number (Eventor's ids are digits only; got '${text.slice(0, 20)}')`);
  return text;
}

const id = () => kind<string | number>((v) => idText(v));

const idList = () =>
  kind<string | number | ReadonlyArray<string | number>>((v) => {
    if (v === undefined || v === null) return fail('is required');
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
    if (items.length === 0) return fail('must list at least one id');
    const out: string[] = [];
    for (const item of items) {
      if (typeof item === 'string' && item.trim() === '')
        return fail('must not contain an empty id (check for doubled or trailing commas)');
      out.push(idText(item, 'a list of ids'));
    }
    return out.join(',');
  });

/** Classification ids 1-6, or their names (`championship`, `national`, `district`, `local`, `club`, `international`). */
const classificationIds = () =>
  kind<string | number | ReadonlyArray<string | number>>((v) => {
    if (v === undefined || v === null) return fail('is required');
    const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
    if (items.length === 0) return fail('must list at least one classification');
    const out: string[] = [];
    for (const item of items) {
      const text = String(item).trim().toLowerCase();
      const mapped = classificationIdOf(text) ?? text;
      if (!Object.hasOwn(EVENT_CLASSIFICATIONS, mapped)) {
        return fail(`must list classification ids 1-6 or names (${KNOWN_CLASSIFICATIONS.join(', ')})`);
      }
      out.push(mapped);
    }
    return out.join(',');
  });

const bool = () =>
  kind<boolean | 'true' | 'false'>((v) => {
    if (v === true || v === 'true') return 'true';
    if (v === false || v === 'false') return 'false';
    if (v === undefined || v === null) return fail('is required');
    return fail('must be true or false');
  });

function dateText(v: unknown): string {
  if (v === undefined || v === null) return fail('is required');
  if (!(v instanceof Date) && typeof v !== 'string')
    return fail('must be a date (2026-05-01, 2026-05-01T10:00:00+02:00 or 2026-05-01 10:00:00)');
  if (typeof v === 'string') {
    // Date.parse shifts an impossible day (2026-02-30 becomes 2 March): refuse it instead.
    const parts = /^\s*(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(v);
    // parseISO, not isMatch: isMatch loads date-fns's whole format parser (about 60 modules) on every
    // start and query.
    if (parts && !isValid(parseISO(parts[1]!))) return fail(`must be a real date: ${parts[1]} does not exist`);
    if (
      parts &&
      parts[2] !== undefined &&
      (Number(parts[2]) > 23 || Number(parts[3]) > 59 || Number(parts[4] ?? 0) > 59)
    ) {
      return fail(`must have a real time of day (00:00:00 to 23:59:59; got ${v.trim().slice(11, 19)})`);
    }
  }
  const formatted = formatQueryDateTime(v);
  if (formatted === null) return fail('must be a date (2026-05-01, 2026-05-01T10:00:00+02:00 or 2026-05-01 10:00:00)');
  // Eventor parses four-digit years only; Date can represent far more.
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(formatted))
    return fail('must be a date between the years 0000 and 9999');
  return formatted;
}

/**
 * A point in time, sent as `yyyy-mm-dd hh:mm:ss` in UTC (Eventor reads query times as UTC).
 * A plain date as an upper bound (`toDate: 2026-05-31`) means the end of that day, so the day is
 * included, as a person typing it expects; as a lower bound it means its start.
 */
const dateTime = (bound: 'lower' | 'upper' = 'lower') =>
  kind<Date | string>((v) => {
    const text = dateText(v);
    return bound === 'upper' && typeof v === 'string' && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(v)
      ? `${text.slice(0, 10)} 23:59:59`
      : text;
  });

/**
 * A whole day for /activities, which documents `yyyy-mm-dd 00:00:00` and `yyyy-mm-dd 23:59:59`.
 * The day is the UTC date of the value, so `2026-05-01` is 1 May whatever the machine's zone.
 */
const day = (edge: 'start' | 'end') =>
  kind<Date | string>((v) => `${dateText(v).slice(0, 10)} ${edge === 'start' ? '00:00:00' : '23:59:59'}`);

const top = () =>
  kind<number | string>((v) => {
    if (v === undefined || v === null) return fail('is required');
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) return fail('must be a whole number, 1 or more');
    return String(n);
  });

/** Text that travels in an HTTP header: undici rejects line breaks and characters above U+00FF. */
const headerText = () =>
  kind<string>((v) => {
    if (v === undefined || v === null) return fail('is required');
    if (typeof v !== 'string' || v === '') return fail('must be a non-empty text');
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(v)) return fail('must not contain line breaks or control characters');
    if (/[^\u0000-\u00ff]/.test(v)) return fail('contains characters that cannot be sent in an HTTP header');
    return v;
  });

const competitorBody = () =>
  kind<Competitor | string, Competitor>((v): Competitor => {
    if (v === undefined || v === null) return fail('is required');
    let value: unknown = v;
    if (typeof v === 'string') {
      try {
        value = JSON.parse(v);
      } catch {
        return fail('must be a Competitor object (or its JSON)');
      }
    }
    const parsed = CompetitorSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(`is not a valid Competitor${issue ? ` (${issue.path.join('.') || 'root'}: ${issue.message})` : ''}`);
    }
    if (parsed.data.competitorId === null && parsed.data.personId === null && parsed.data.person?.id == null) {
      return fail('needs the competitorId or personId of the person whose settings are saved');
    }
    return parsed.data;
  });

/** Pairs whose lower bound must not come after the upper bound. */
function ordered<S extends z.ZodObject>(schema: S, pairs: ReadonlyArray<readonly [string, string]>) {
  return schema.superRefine((value, ctx) => {
    const v = value as Record<string, unknown>;
    for (const [from, to] of pairs) {
      const a = v[from];
      const b = v[to];
      // Both are `yyyy-mm-dd hh:mm:ss` by now, which sorts as text.
      if (typeof a === 'string' && typeof b === 'string' && a > b)
        ctx.addIssue({ code: 'custom', path: [from], message: `is after ${to}` });
    }
  });
}

// ---------------------------------------------------------------------------------------------

interface Spec<S extends z.ZodObject, R> {
  method?: 'GET' | 'PUT';
  path: string;
  summary: string;
  /** Called on the operation's first use (see `op`). */
  shape: () => S;
  pairs?: ReadonlyArray<readonly [string, string]>;
  headerParams?: Record<string, string>;
  root: string;
  format?: 'native' | 'iofxml';
  cacheTtlMs: number;
  /** Required, so that every operation states how large its answer may be (see RESPONSE CAPS). */
  maxResponseBytes: number;
  coalesce?: boolean;
  /** Required, so that every operation states whose answer it is (see SHARING below). */
  keyIndependent: boolean;
  keyBoundWith?: readonly string[];
  secretResponse?: boolean;
  invalidates?: readonly string[];
  note?: string;
  body?: (params: Record<string, unknown>) => string;
  /** Imports the module of the parser and returns the parser (see OperationDef.parser). */
  parser: () => Promise<(xml: string, context: ParseContext) => R>;
}

/**
 * One operation's definition. Its parameter schema is built on first use of `params`,
 * `parameterNames` or `required`, not at import: a process calls a few of the operations (a CLI
 * query one), and building every schema up front was most of what importing this module cost.
 */
function op<const N extends string, S extends z.ZodObject, R>(name: N, spec: Spec<S, R>) {
  let built: { params: S; parameterNames: readonly string[]; required: readonly string[] } | undefined;
  const build = () => {
    if (built !== undefined) return built;
    const schema = spec.shape();
    const shape = schema.shape as Record<string, z.ZodType>;
    const parameterNames = Object.keys(shape);
    const required = parameterNames.filter((k) => !shape[k]!.safeParse(undefined).success);
    const params = spec.pairs ? ordered(schema, spec.pairs) : schema;
    // The refined schema has the same input and output types as the plain object.
    built = { params: params as unknown as S, parameterNames, required };
    return built;
  };
  const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  let parser: Promise<(xml: string, context: ParseContext) => R> | undefined;
  const def: OperationDef<S, R> = {
    name,
    method: spec.method ?? 'GET',
    path: spec.path,
    summary: spec.summary,
    get params() {
      return build().params;
    },
    get parameterNames() {
      return build().parameterNames;
    },
    get required() {
      return build().required;
    },
    pathParams,
    headerParams: spec.headerParams ?? {},
    root: spec.root,
    format: spec.format ?? 'native',
    cacheTtlMs: spec.cacheTtlMs,
    maxResponseBytes: spec.maxResponseBytes,
    coalesce: spec.coalesce ?? (spec.method ?? 'GET') === 'GET',
    keyIndependent: spec.keyIndependent && (spec.method ?? 'GET') === 'GET',
    keyBoundWith: spec.keyBoundWith ?? [],
    secretResponse: spec.secretResponse ?? false,
    invalidates: spec.invalidates ?? [],
    note: spec.note ?? null,
    body: spec.body ?? null,
    parser: () =>
      (parser ??= spec.parser().catch((error: unknown) => {
        // A failed import is not kept: the next answer tries again.
        parser = undefined;
        throw error;
      })),
  };
  return def;
}

const REQUIRED_IN_PRACTICE = 'docs/eventor.md#required-parameters-the-documentation-marks-optional';
const NOTE_EVENT_ID = `eventId is optional in the documentation but required in practice (${REQUIRED_IN_PRACTICE})`;
const NOTE_PERSON_ID = `personId is optional in the documentation but required in practice (${REQUIRED_IN_PRACTICE})`;

/*
 * SHARING. Servers of different clubs ask with different keys; an answer may serve every key only
 * when it cannot depend on the key. Conservatively, an operation is key-bound when Eventor's
 * documentation or what clients have seen ties it to the caller or leaves room for the answer to
 * differ by key (docs/eventor.md#shared-and-per-key-answers):
 *
 * - key-independent: the events list, documents, one event, its classes and fees, the directory
 *   of organisations, an event's full start and result lists (native and IOF). A key can read
 *   public data of any organisation; these take no organisation of the caller, and Eventor's
 *   public web pages show the same to anyone.
 * - key-bound: what the key itself is (`organisation/apiKey`); the own-organisation operations
 *   (persons, competitors, externalLoginUrl, starts/results per organisation, activities; see
 *   docs/eventor.md#own-organisation-rules); persons and competitors (only the key's members);
 *   PUT and login; `starts|results/person` (about one person, who may be the caller's member).
 * - key-bound though probably public, because what is known leaves room for the key to matter and
 *   sharing them would save little (a club asks about its own organisation, with its own key):
 *   `organisation/{id}` (the own club may see more of itself, e.g. the `Account` MeOS reads),
 *   `entries` and `competitorcount` (ask by the entrants' organisation; person elements and
 *   counts per person of the caller's members), and `organisations` with `includeProperties`
 *   ("extended information" not described anywhere).
 */

/*
 * RESPONSE CAPS. How large each answer may be before the client stops reading it and closes the
 * connection (http.ts): a broken or hostile host at the base URL could otherwise stream until the
 * bot runs out of memory and every server it serves goes quiet. Generous on purpose, from the
 * sizes seen (docs/eventor.md#answer-sizes: 713 entries came to 2.4 MB; full result lists with
 * splits run to several MB, and a 20,000-runner multi-day event to well over a hundred):
 *
 * - one object (the key's organisation, one event, one competitor, a login link, a person): 4 MiB;
 * - lists bounded by a club, a person or a period (events, members, classes, fees, activities,
 *   a person's starts and results): 32 MiB;
 * - an event's full start and result lists, native and IOF, the club's lists in one event, and
 *   entries (which may be asked for a whole event): 256 MiB.
 *
 * The operator scales all of them together (EVENTOR_MAX_RESPONSE_MB names the largest tier).
 */
const MiB = 1024 * 1024;
const SMALL_ANSWER = 4 * MiB;
const LIST_ANSWER = 32 * MiB;
const FULL_LIST_ANSWER = 256 * MiB;
/** The largest tier in MiB: what EVENTOR_MAX_RESPONSE_MB replaces (the other tiers keep their proportion). */
export const DEFAULT_LARGEST_RESPONSE_MIB = FULL_LIST_ANSWER / MiB;

const native =
  <R>(fn: (xml: string, options: { timeZone: string }) => R) =>
  (xml: string, c: ParseContext) =>
    fn(xml, { timeZone: c.timeZone });

/*
 * The native parsers by the module that holds them (native/index.ts re-exports them all): an
 * operation loads its own module only.
 */
const events = () => import('./native/events.js');
const people = () => import('./native/people.js');
const entries = () => import('./native/entries.js');
const lists = () => import('./native/lists.js');
const activities = () => import('./native/activities.js');
const iof = () => import('./iof/index.js');

export const OPERATIONS = {
  events: op('events', {
    path: '/events',
    summary: 'Events matching the filters',
    shape: () =>
      z.strictObject({
        fromDate: dateTime().optional(),
        toDate: dateTime('upper').optional(),
        fromModifyDate: dateTime().optional(),
        toModifyDate: dateTime('upper').optional(),
        eventIds: idList().optional(),
        organisationIds: idList().optional(),
        classificationIds: classificationIds().optional(),
        includeEntryBreaks: bool().optional(),
        includeAttributes: bool().optional(),
      }),
    pairs: [
      ['fromDate', 'toDate'],
      ['fromModifyDate', 'toModifyDate'],
    ],
    root: 'EventList',
    cacheTtlMs: 10 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: true,
    parser: async () => native<Event[]>((await events()).parseEventList),
  }),
  'events-documents': op('events-documents', {
    path: '/events/documents',
    summary: 'Documents of events matching the filters',
    shape: () =>
      z.strictObject({
        fromDate: dateTime().optional(),
        toDate: dateTime('upper').optional(),
        eventIds: idList().optional(),
        organisationIds: idList().optional(),
      }),
    pairs: [['fromDate', 'toDate']],
    root: 'DocumentList',
    cacheTtlMs: 10 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: true,
    parser: async () => native<EventDocument[]>((await events()).parseDocumentList),
  }),
  event: op('event', {
    path: '/event/{eventId}',
    summary: 'One event',
    shape: () => z.strictObject({ eventId: id() }),
    root: 'Event',
    cacheTtlMs: 10 * MINUTE,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: true,
    parser: async () => native<Event>((await events()).parseEvent),
  }),
  eventclasses: op('eventclasses', {
    path: '/eventclasses',
    summary: 'All classes of one event',
    shape: () => z.strictObject({ eventId: id(), includeEntryFees: bool().optional() }),
    root: 'EventClassList',
    cacheTtlMs: 10 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: true,
    parser: async () => native<EventClass[]>((await events()).parseEventClassList),
  }),
  entryfees: op('entryfees', {
    path: '/entryfees/events/{eventId}',
    summary: 'All entry fees of one event',
    shape: () => z.strictObject({ eventId: id() }),
    root: 'EntryFeeList',
    cacheTtlMs: 10 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: true,
    parser: async () => native<EntryFee[]>((await events()).parseEntryFeeList),
  }),
  'organisation-apikey': op('organisation-apikey', {
    path: '/organisation/apiKey',
    summary: 'The organisation the API key belongs to',
    shape: () => z.strictObject({}),
    root: 'Organisation',
    cacheTtlMs: 24 * HOUR,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    parser: async () => native<Organisation>((await people()).parseOrganisation),
  }),
  organisations: op('organisations', {
    path: '/organisations',
    summary: 'All organisations (federations, districts, clubs)',
    shape: () => z.strictObject({ includeProperties: bool().optional() }),
    root: 'OrganisationList',
    cacheTtlMs: 24 * HOUR,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: true,
    keyBoundWith: ['includeProperties'],
    parser: async () => native<Organisation[]>((await people()).parseOrganisationList),
  }),
  organisation: op('organisation', {
    path: '/organisation/{id}',
    summary: 'One organisation',
    shape: () => z.strictObject({ id: id() }),
    root: 'Organisation',
    cacheTtlMs: 24 * HOUR,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    parser: async () => native<Organisation>((await people()).parseOrganisation),
  }),
  persons: op('persons', {
    path: '/persons/organisations/{organisationId}',
    summary: "Members of the key's own organisation",
    shape: () =>
      z.strictObject({
        organisationId: id(),
        includeContactDetails: bool().optional(),
        includePersonProperties: bool().optional(),
        includePersonIdentifiers: bool().optional(),
      }),
    root: 'PersonList',
    cacheTtlMs: 24 * HOUR,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    parser: async () => native<Person[]>((await people()).parsePersonList),
  }),
  competitors: op('competitors', {
    path: '/competitors',
    summary: "Competitor settings (cards, preselected classes) of the own organisation's members",
    shape: () => z.strictObject({ organisationId: id() }),
    root: 'CompetitorList',
    cacheTtlMs: 1 * HOUR,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    parser: async () => native<Competitor[]>((await people()).parseCompetitorList),
  }),
  competitor: op('competitor', {
    path: '/competitor/{competitorId}',
    summary: "One person's competitor settings (by internal competitor id)",
    shape: () => z.strictObject({ competitorId: id() }),
    root: 'Competitor',
    cacheTtlMs: 1 * HOUR,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    parser: async () => native<Competitor>((await people()).parseCompetitor),
  }),
  'save-competitor': op('save-competitor', {
    method: 'PUT',
    path: '/competitor',
    summary: "Save one person's competitor settings",
    shape: () => z.strictObject({ competitor: competitorBody() }),
    root: 'Competitor',
    cacheTtlMs: 0,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    coalesce: false,
    invalidates: ['competitor', 'competitors'],
    body: (params) => serializeCompetitor(params.competitor as Competitor),
    parser: async () => native<Competitor>((await people()).parseCompetitor),
  }),
  'external-login-url': op('external-login-url', {
    path: '/externalLoginUrl',
    summary: 'A single-use, 5-minute login link for a member (never cached or logged)',
    shape: () => z.strictObject({ personId: id(), organisationId: id(), includeContactDetails: bool().optional() }),
    root: 'ExternalLoginUrl',
    cacheTtlMs: 0,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    // Each caller must get its own link: a shared one works only once.
    coalesce: false,
    secretResponse: true,
    parser: async () => native<string>((await people()).parseExternalLoginUrl),
  }),
  'authenticate-person': op('authenticate-person', {
    path: '/authenticatePerson',
    summary: 'The person with this user name and password (sent as headers)',
    shape: () => z.strictObject({ username: headerText(), password: headerText() }),
    // The official documentation defines these as headers (docs/eventor.md#authentication-and-headers);
    // the URL would leak them into logs.
    headerParams: { username: 'Username', password: 'Password' },
    root: 'Person',
    cacheTtlMs: 0,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    // The credentials are not part of the coalescing key, so two users must never share a request.
    coalesce: false,
    parser: async () => native<Person>((await people()).parsePerson),
  }),
  entries: op('entries', {
    path: '/entries',
    summary: 'Entries matching the filters',
    shape: () =>
      z.strictObject({
        organisationIds: idList().optional(),
        eventIds: idList().optional(),
        eventClassIds: idList().optional(),
        fromEventDate: dateTime().optional(),
        toEventDate: dateTime('upper').optional(),
        fromEntryDate: dateTime().optional(),
        toEntryDate: dateTime('upper').optional(),
        fromModifyDate: dateTime().optional(),
        toModifyDate: dateTime('upper').optional(),
        includeEntryFees: bool().optional(),
        includePersonElement: bool().optional(),
        includeOrganisationElement: bool().optional(),
        includeEventElement: bool().optional(),
      }),
    pairs: [
      ['fromEventDate', 'toEventDate'],
      ['fromEntryDate', 'toEntryDate'],
      ['fromModifyDate', 'toModifyDate'],
    ],
    root: 'EntryList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: false,
    parser: async () => native<Entry[]>((await entries()).parseEntryList),
  }),
  competitorcount: op('competitorcount', {
    path: '/competitorcount',
    summary: 'Number of entries',
    shape: () =>
      z.strictObject({ organisationIds: idList(), eventIds: idList().optional(), personIds: idList().optional() }),
    root: 'CompetitorCountList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    parser: async () => native<CompetitorCount[]>((await entries()).parseCompetitorCountList),
  }),
  'starts-event': op('starts-event', {
    path: '/starts/event',
    summary: 'Start list of one event',
    shape: () => z.strictObject({ eventId: id() }),
    root: 'StartList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: true,
    note: NOTE_EVENT_ID,
    parser: async () => native<StartList>((await lists()).parseStartList),
  }),
  'starts-event-iofxml': op('starts-event-iofxml', {
    path: '/starts/event/iofxml',
    summary: 'Start list of one event in IOF XML 3.0',
    shape: () => z.strictObject({ eventId: id(), eventRaceId: id().optional() }),
    root: 'StartList',
    format: 'iofxml',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: true,
    parser: async () => {
      const { parseIofStartList } = await iof();
      return (xml: string, c: ParseContext): { xml: string; list: StartList } => ({
        xml,
        list: parseIofStartList(xml, { timeZone: c.nativeTimeZone }),
      });
    },
  }),
  'starts-person': op('starts-person', {
    path: '/starts/person',
    summary: 'Start times of one person in several events',
    shape: () =>
      z.strictObject({
        personId: id(),
        eventIds: idList().optional(),
        fromDate: dateTime().optional(),
        toDate: dateTime('upper').optional(),
      }),
    pairs: [['fromDate', 'toDate']],
    root: 'StartListList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    note: NOTE_PERSON_ID,
    parser: async () => native<StartList[]>((await lists()).parseStartListList),
  }),
  'starts-organisation': op('starts-organisation', {
    path: '/starts/organisation',
    summary: "Start times of the own organisation's participants in one event",
    shape: () => z.strictObject({ organisationIds: idList(), eventId: id() }),
    root: 'StartList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: false,
    note: NOTE_EVENT_ID,
    parser: async () => native<StartList>((await lists()).parseStartList),
  }),
  'results-event': op('results-event', {
    path: '/results/event',
    summary: 'Result list of one event',
    shape: () => z.strictObject({ eventId: id(), includeSplitTimes: bool().optional(), top: top().optional() }),
    root: 'ResultList',
    cacheTtlMs: 1 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: true,
    note: NOTE_EVENT_ID,
    parser: async () => native<ResultList>((await lists()).parseResultList),
  }),
  'results-event-iofxml': op('results-event-iofxml', {
    path: '/results/event/iofxml',
    summary: 'Result list of one event in IOF XML 3.0',
    shape: () =>
      z.strictObject({
        eventId: id(),
        eventRaceId: id().optional(),
        includeSplitTimes: bool().optional(),
        totalResult: bool().optional(),
      }),
    root: 'ResultList',
    format: 'iofxml',
    cacheTtlMs: 1 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: true,
    parser: async () => {
      const { parseIofResultList } = await iof();
      return (xml: string, c: ParseContext): { xml: string; list: ResultList } => ({
        xml,
        list: parseIofResultList(xml, { timeZone: c.nativeTimeZone }),
      });
    },
  }),
  'results-person': op('results-person', {
    path: '/results/person',
    summary: 'Results of one person in several events',
    shape: () =>
      z.strictObject({
        personId: id(),
        eventIds: idList().optional(),
        fromDate: dateTime().optional(),
        toDate: dateTime('upper').optional(),
        includeSplitTimes: bool().optional(),
        top: top().optional(),
      }),
    pairs: [['fromDate', 'toDate']],
    root: 'ResultListList',
    cacheTtlMs: 1 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    note: NOTE_PERSON_ID,
    parser: async () => native<ResultList[]>((await lists()).parseResultListList),
  }),
  'results-organisation': op('results-organisation', {
    path: '/results/organisation',
    summary: "Results of the own organisation's participants in one event",
    shape: () =>
      z.strictObject({
        organisationIds: idList(),
        eventId: id(),
        includeSplitTimes: bool().optional(),
        top: top().optional(),
      }),
    root: 'ResultList',
    cacheTtlMs: 1 * MINUTE,
    maxResponseBytes: FULL_LIST_ANSWER,
    keyIndependent: false,
    note: NOTE_EVENT_ID,
    parser: async () => native<ResultList>((await lists()).parseResultList),
  }),
  activities: op('activities', {
    path: '/activities',
    summary: 'Activities of the own organisation in a period',
    shape: () =>
      z.strictObject({
        organisationId: id(),
        from: day('start'),
        to: day('end'),
        includeRegistrations: bool().optional(),
      }),
    pairs: [['from', 'to']],
    root: 'ActivityList',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: LIST_ANSWER,
    keyIndependent: false,
    parser: async () => native<Activity[]>((await activities()).parseActivityList),
  }),
  activity: op('activity', {
    path: '/activity',
    summary: 'One activity of the own organisation',
    shape: () => z.strictObject({ organisationId: id(), id: id(), includeRegistrations: bool().optional() }),
    root: 'Activity',
    cacheTtlMs: 5 * MINUTE,
    maxResponseBytes: SMALL_ANSWER,
    keyIndependent: false,
    parser: async () => native<Activity>((await activities()).parseActivity),
  }),
} as const;

export type Operations = typeof OPERATIONS;
export type OperationName = keyof Operations;
/** What a caller may pass: ids as numbers or strings, lists as arrays or `a,b`, dates as Date or ISO text. */
export type OperationParams<N extends OperationName> = z.input<Operations[N]['params']>;
export type OperationResult<N extends OperationName> = ReturnType<Awaited<ReturnType<Operations[N]['parser']>>>;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATIONS, name);
}

export interface PreparedRequest {
  method: 'GET' | 'PUT';
  /** Filled and encoded, below `/api`. */
  path: string;
  query: Record<string, string>;
  /** Header parameters (credentials): keep out of logs. */
  secretHeaders: Record<string, string>;
  body: string | undefined;
}

/** Whether one prepared request's answer may serve every key (see SHARING). */
export function isKeyIndependent(name: OperationName, query: Readonly<Record<string, string>>): boolean {
  const def = OPERATIONS[name] as OperationDef;
  return def.keyIndependent && !def.keyBoundWith.some((flag) => query[flag] === 'true');
}

/** Checks and normalises the parameters of one operation; throws ValidationError naming the parameter. */
export function prepareRequest(name: string, params: unknown): PreparedRequest {
  if (!isOperationName(name)) throw new ValidationError('operation', `unknown operation '${name.slice(0, 40)}'`);
  const def = OPERATIONS[name] as OperationDef;
  const input = params ?? {};
  if (typeof input !== 'object' || Array.isArray(input))
    throw new ValidationError('parameters', 'must be an object', { operation: name });
  const parsed = def.params.safeParse(input);
  if (!parsed.success) throw validationErrorFrom(parsed.error, name, def);
  const values = parsed.data as Record<string, unknown>;
  let path = def.path;
  const query: Record<string, string> = {};
  const secretHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (def.pathParams.includes(key)) path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
    else if (Object.hasOwn(def.headerParams, key)) secretHeaders[def.headerParams[key]!] = String(value);
    else if (def.body === null) query[key] = String(value);
  }
  return { method: def.method, path, query, secretHeaders, body: def.body ? def.body(values) : undefined };
}

function validationErrorFrom(error: z.ZodError, operation: string, def: OperationDef): ValidationError {
  // Unknown parameters first: a misspelt name explains the other complaints too.
  const unknown = error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') {
    const key = String(unknown.keys[0] ?? '?').slice(0, 40);
    const names = def.parameterNames.length ? def.parameterNames.join(', ') : 'none';
    return new ValidationError(key, `unknown parameter (known: ${names})`, { operation });
  }
  const issue = error.issues[0];
  const parameter = issue && issue.path.length > 0 ? String(issue.path[0]) : 'parameters';
  return new ValidationError(parameter, issue?.message ?? 'is invalid', { operation });
}

/** Local name of the document element, skipping the prolog, comments and a doctype. */
export function rootElementName(xml: string): string | null {
  const m = /^\uFEFF?\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<([A-Za-z_][\w.:-]*)/.exec(xml);
  if (!m) return null;
  const name = m[1]!;
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/**
 * Cheap check that the whole document arrived: it must end with the root's end tag, or the root
 * must be self-closed. XML parsers in lenient mode accept a cut-off document as a shorter list,
 * which would silently drop runners.
 */
export function isComplete(xml: string, root: string): boolean {
  // Only the end matters; looking at the last few kB keeps this cheap on multi-MB lists.
  const end = xml.length > 8192 ? xml.slice(-8192) : xml;
  const tail = end.replace(/(?:\s|<!--[\s\S]*?-->)*$/, '');
  if (new RegExp(`</(?:[\\w.-]+:)?${root}\\s*>$`).test(tail)) return true;
  if (end !== xml) return false;
  const start =
    /^\uFEFF?\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<[A-Za-z_][\w.:-]*((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
      xml,
    );
  return start !== null && start[2] === '/' && start.index + start[0].length === tail.length;
}

/**
 * Runs the operation's parser after checking the root element; every failure of the document is
 * an InvalidResponse. Asynchronous only to load the parser's module on the operation's first
 * answer; the parse itself runs in one go.
 */
export async function parseResponse<N extends OperationName>(
  name: N,
  xml: string,
  context: ParseContext,
): Promise<OperationResult<N>> {
  const def = OPERATIONS[name] as OperationDef;
  const operation = name;
  const root = rootElementName(xml);
  if (root === null) throw new InvalidResponse('no XML document element', null, { operation });
  if (root !== def.root)
    throw new InvalidResponse(`expected <${def.root}> but got <${root.slice(0, 60)}>`, null, { operation });
  if (!isComplete(xml, def.root))
    throw new InvalidResponse('truncated document (no end tag of the root element)', null, { operation });
  const parse = await def.parser();
  try {
    return parse(xml, context) as OperationResult<N>;
  } catch (error) {
    // The body of a login-link answer is the link itself: keep every detail of it out of the error.
    if (def.secretResponse) throw new InvalidResponse('could not read the login link', null, { operation });
    if (error instanceof EventorError) throw error;
    throw new InvalidResponse(
      `could not read the XML (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'})`,
      null,
      { operation, cause: error },
    );
  }
}
