/**
 * A club cup (docs/season.md#cups): its name, its scoring, which races count (levels, disciplines,
 * a date range, chosen events) and which classes, and how many of a runner's races make their
 * total. Every filter left empty lets everything through; filters given all apply together.
 */
import { z } from 'zod';
import { EventClassification, LocalDate } from '../eventor/model.js';
import { type SeasonRace, type SeasonRunner } from './races.js';
import { SCORINGS, scoreRaces, type Standing, standings } from './scoring.js';

/** At most this long (days, inclusive) a cup may run: one season, and a bound on what it asks Eventor. */
export const MAX_CUP_DAYS = 366;
/** A runner's best N races: at most this many. */
export const MAX_BEST = 100;
/** At most this many chosen events or classes per cup. */
export const MAX_CHOSEN = 50;
export const MAX_CUP_NAME = 60;

export const CupRules = z.object({
  scoring: z.enum(SCORINGS),
  /** A runner's best N races make their total; null: every race. */
  best: z.number().int().min(1).max(MAX_BEST).nullable(),
  /** Event levels that count; empty: every level. */
  levels: z.array(EventClassification).max(10),
  /** Eventor discipline ids that count (1 foot, 2 mountain bike, 3 ski, 4 trail, 6 park and street); empty: every one. */
  disciplines: z.array(z.string().regex(/^\d{1,3}$/)).max(10),
  /** First and last day that count, in the server's time zone, inclusive. */
  from: LocalDate,
  to: LocalDate,
  /** Chosen events: only these count; empty: every event. */
  eventIds: z.array(z.string().regex(/^\d{1,18}$/)).max(MAX_CHOSEN),
  /** Class names that count (compared without case or accents by the caller); empty: every class. */
  classes: z.array(z.string().min(1).max(100)).max(MAX_CHOSEN),
});
export type CupRules = z.infer<typeof CupRules>;

/**
 * Whether a race counts for the cup by its event (level, discipline, chosen events) and its day
 * (the race's local date, which the caller works out in the server's time zone).
 */
export function raceCounts(rules: CupRules, race: SeasonRace, day: string | null): boolean {
  if (day === null || day < rules.from || day > rules.to) return false;
  if (rules.levels.length > 0 && !rules.levels.includes(race.classification)) return false;
  if (rules.disciplines.length > 0 && !race.disciplineIds.some((d) => rules.disciplines.includes(d))) return false;
  if (rules.eventIds.length > 0 && (race.eventId === null || !rules.eventIds.includes(race.eventId))) return false;
  return true;
}

export interface CupResult {
  /** The races that count, oldest first: `Standing.counted[].race` indexes them. */
  races: SeasonRace[];
  standings: Standing[];
}

/** A runner as the cup knows them: their Eventor person, else (no id) their name. */
export function personKey(runner: SeasonRunner): string {
  return runner.personId === null ? `name:${runner.name}` : `id:${runner.personId}`;
}

/**
 * The cup's standings over the races given with their local days; `classCounts` says whether a
 * class (by name) counts, for the caller to compare names as it compares them elsewhere.
 */
export function cupStandings(
  rules: CupRules,
  races: ReadonlyArray<{ race: SeasonRace; day: string | null }>,
  classCounts: (name: string) => boolean,
): CupResult {
  const counting = races
    .filter(({ race, day }) => raceCounts(rules, race, day))
    .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || (a.race.date ?? '').localeCompare(b.race.date ?? ''))
    .map(({ race }) => race);
  const entries = scoreRaces(counting, rules.scoring, personKey, {
    classes: (name) => rules.classes.length === 0 || classCounts(name),
  });
  return { races: counting, standings: standings(entries, rules.best) };
}
