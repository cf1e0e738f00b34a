/**
 * The live-results domain model (docs/live-results.md#the-model): what the LiveResultat sources
 * are normalised into, whichever API answered. Times are whole seconds, start times seconds after
 * local midnight of the competition day, places numbers; nothing here is LiveResultat's wire shape.
 */
import { z } from 'zod';

/** A runner's state, as the board and the command line show it. */
export const LIVE_STATUSES = ['not-started', 'running', 'finished', 'mp', 'dnf', 'dsq', 'dns', 'other'] as const;
export const LiveStatus = z.enum(LIVE_STATUSES);
export type LiveStatus = z.infer<typeof LiveStatus>;

const WholeSeconds = z.number().int().nonnegative();
const Place = z.number().int().positive();
const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Which API answered: the REST API or the older `api.php` (LiveResultat's or LiveRes's). */
export const LiveSourceKind = z.enum(['rest', 'legacy']);
export type LiveSourceKind = z.infer<typeof LiveSourceKind>;

export const LiveCompetition = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  organiser: z.string(),
  /** The competition day, as the organiser typed it. */
  date: LocalDate,
  /** The IANA zone the source named; null when it named none (then `timediff` says). */
  timeZone: z.string().nullable(),
  /** Hours ahead of Swedish local time (docs/live-results.md#time-zones). */
  timediff: z.number(),
  /** Lower-case ISO 3166 alpha-2 code; only some answers carry it. */
  country: z.string().nullable(),
  /** Stage number of a multi-day event (1 …), and the id of its first stage. */
  multiDayStage: z.number().int().positive().nullable(),
  multiDayFirstDay: z.number().int().positive().nullable(),
});
export type LiveCompetition = z.infer<typeof LiveCompetition>;

/** A radio control of a class: LiveResultat's code is 1000 × the pass + the control's code. */
export const LiveControl = z.object({
  code: z.number().int().positive(),
  name: z.string().nullable(),
});
export type LiveControl = z.infer<typeof LiveControl>;

/** One runner at one radio control. */
export const LiveRadio = z.object({
  code: z.number().int().positive(),
  /** Seconds from the runner's start; null until the runner passed. */
  time: WholeSeconds.nullable(),
  /** Among those through so far (the live position only in a mass start). */
  place: Place.nullable(),
  /** Behind the best time there. */
  behind: WholeSeconds.nullable(),
});
export type LiveRadio = z.infer<typeof LiveRadio>;

export const LiveRunner = z.object({
  name: z.string(),
  /** The club string the timing software uploaded (a relay team's name in relays). */
  club: z.string(),
  className: z.string(),
  status: LiveStatus,
  /** Seconds after local midnight of the competition day; null when the source gave none. */
  start: WholeSeconds.nullable(),
  /** The result time (for a relay leg from some uploaders the team's running total). */
  time: WholeSeconds.nullable(),
  place: Place.nullable(),
  behind: WholeSeconds.nullable(),
  /** The class's radio controls in course order, each with what the runner has there. */
  radios: z.array(LiveRadio),
  /** When LiveResultat last saw this row change (Unix seconds); null where the source does not say. */
  changedAt: z.number().int().nullable(),
});
export type LiveRunner = z.infer<typeof LiveRunner>;

export const LiveClassResults = z.object({
  className: z.string(),
  radioControls: z.array(LiveControl),
  runners: z.array(LiveRunner),
});
export type LiveClassResults = z.infer<typeof LiveClassResults>;

/** What the whole-competition export says, for change detection only (it has no places). */
export const LiveOverview = z.object({
  classes: z.array(
    z.object({
      name: z.string(),
      relayLeg: z.number().int().positive().nullable(),
      relayClassName: z.string().nullable(),
    }),
  ),
  runners: z.array(z.object({ name: z.string(), club: z.string(), className: z.string() })),
  /** Per class, the newest change (Unix seconds) of any of its rows or punches. */
  classChangedAt: z.record(z.string(), z.number().int()),
});
export type LiveOverview = z.infer<typeof LiveOverview>;

/**
 * A conditional read: `notModified` when the source said nothing changed since `token`, else the
 * data with the token to send next time (an ETag, or an `api.php` hash; opaque, tied to the source).
 */
export type Conditional<T> =
  | { kind: 'notModified'; source: LiveSourceKind }
  | { kind: 'data'; source: LiveSourceKind; token: string | null; data: T };
