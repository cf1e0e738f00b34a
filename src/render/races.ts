/**
 * Races of multi-race events: native lists name a race by Eventor race id, IOF lists by number.
 */
import type { EventRef } from '../eventor/answers.js';
import { type Language, t } from '../i18n/index.js';
import { escapeName } from './format.js';

export interface RaceKeyed {
  raceId: string | null;
  raceNumber: number | null;
}

export function raceKey(race: RaceKeyed): string {
  return race.raceId !== null ? `id:${race.raceId}` : `n:${race.raceNumber ?? 1}`;
}

/** Sort order of a race: its number, or its place among the event's races. */
export function raceOrder(race: RaceKeyed, event: EventRef): number {
  if (race.raceNumber !== null) return race.raceNumber;
  const index = event.event?.races.findIndex((r) => r.id === race.raceId) ?? -1;
  return index >= 0 ? index + 1 : Number.MAX_SAFE_INTEGER;
}

/**
 * "Stage 2" or the race's own name when Eventor gives one. Beside a relay leg, Norwegian says
 * "Dag 2": a stage and a leg are both "etappe" there.
 */
export function raceLabel(
  race: RaceKeyed,
  event: EventRef,
  language: Language,
  options: { besideLeg?: boolean } = {},
): string {
  const races = event.event?.races ?? [];
  const index = race.raceId !== null ? races.findIndex((r) => r.id === race.raceId) : (race.raceNumber ?? 1) - 1;
  const named = index >= 0 ? races[index]?.name : null;
  if (named && named.trim() !== '' && races.length > 1) return escapeName(named);
  const number = index >= 0 ? index + 1 : (race.raceNumber ?? 1);
  return t(language, options.besideLeg ? 'render.raceBesideLeg' : 'render.race', { number });
}

export function eventName(ref: EventRef, language: Language): string {
  return escapeName(ref.event?.name ?? ref.name ?? t(language, 'render.unknownEvent'));
}

export function eventId(ref: EventRef): string | null {
  return ref.event?.id ?? ref.id;
}
