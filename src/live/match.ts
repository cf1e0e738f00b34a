/**
 * Which live competition is an Eventor race (docs/live-results.md#matching). There is no shared id:
 * an organiser creates the live competition by hand, typing its name, organiser and date. So the
 * evidence is, in order: a link to it in the event (its documents, its message), then a scored
 * search among the day's competitions (organiser, name, country, the stage of a multi-day event),
 * then the admins, who can always give the competition by id or by its address.
 */
import type { LiveCompetition } from './model.js';
import { clubWords, wordOverlap, words } from './names.js';

/** One race of an Eventor event, as the matching reads it. */
export interface RaceToMatch {
  /** The race's local date, YYYY-MM-DD. */
  date: string;
  eventName: string;
  /** The race's own name in a multi-race event ("Etapp 2"), else null. */
  raceName: string | null;
  /** 1-based position of the race in its event, and how many races the event has. */
  raceNumber: number;
  raceCount: number;
  organisers: readonly { name: string | null; shortName: string | null }[];
  /** Eventor's country code (ISO alpha-3, `SWE`), null when unknown. */
  countryCode: string | null;
  /** Live competition ids the event links to (`liveLinksIn`). */
  linkedIds: readonly number[];
}

export interface ScoredCompetition {
  competition: LiveCompetition;
  score: number;
}

export type CompetitionMatch =
  /** Used as it is, and shown to the admins. */
  | { kind: 'confident'; competition: LiveCompetition; score: number; by: 'link' | 'search' }
  /** Offered to the admins, best first. */
  | { kind: 'uncertain'; candidates: ScoredCompetition[] }
  | { kind: 'none' };

/** A score at least this high, and this far ahead of the next, is confident; at least UNCERTAIN_FROM is offered. */
export const CONFIDENT_FROM = 4;
export const CONFIDENT_MARGIN = 1.5;
export const UNCERTAIN_FROM = 1.5;
const MAX_OFFERED = 3;

/** Eventor's alpha-3 country codes of the countries whose organisers use the live services, as LiveResultat's alpha-2. */
const ALPHA2: Record<string, string> = {
  SWE: 'se',
  NOR: 'no',
  FIN: 'fi',
  DEN: 'dk',
  DNK: 'dk',
  EST: 'ee',
  LAT: 'lv',
  LVA: 'lv',
  LTU: 'lt',
  ISL: 'is',
  GER: 'de',
  DEU: 'de',
  POL: 'pl',
  CZE: 'cz',
  SUI: 'ch',
  CHE: 'ch',
  AUT: 'at',
  GBR: 'gb',
  BUL: 'bg',
  BGR: 'bg',
  AUS: 'au',
};

/** Words of an event name that say nothing of which event it is: stage words, years, connectives. */
const NAME_FILLER = new Set([
  'etapp',
  'etappe',
  'dag',
  'day',
  'stage',
  'e',
  'och',
  'og',
  'and',
  'i',
  'pa',
  'the',
  'of',
  'dagars',
  'dagers',
]);

function nameWords(text: string): string[] {
  return words(text).filter((word) => !NAME_FILLER.has(word) && !/^(19|20)\d\d$/.test(word) && !/^\d$/.test(word));
}

/** Organiser words without the club-type abbreviations that every club has. */
const CLUB_TYPES = new Set(['ok', 'ik', 'if', 'ifk', 'sk', 'sok', 'fk', 'ol', 'il', 'of', 'oll', 'bk', 'ais', 'gif']);
function organiserWords(text: string): string[] {
  const all = clubWords(text);
  const core = all.filter((word) => !CLUB_TYPES.has(word));
  return core.length > 0 ? core : all;
}

/** How well a competition fits the race; the date must be the race's (else -Infinity). */
export function scoreCompetition(race: RaceToMatch, competition: LiveCompetition): number {
  if (competition.date !== race.date) return Number.NEGATIVE_INFINITY;
  const organiser = organiserWords(competition.organiser);
  const organiserScore = Math.max(
    0,
    ...race.organisers.flatMap((o) =>
      [o.name, o.shortName]
        .filter((name): name is string => name !== null && name.trim() !== '')
        .map((name) => wordOverlap(organiserWords(name), organiser)),
    ),
  );
  const eventWords = nameWords(`${race.eventName} ${race.raceName ?? ''}`);
  const liveWords = nameWords(competition.name);
  let nameScore = wordOverlap(eventWords, liveWords);
  // One name within the other ("Höstsprinten" for "Höstsprinten, Granskogens OK") is nearly as good.
  const within = (a: string[], b: string[]) => a.length > 0 && a.every((w) => b.includes(w));
  if (within(liveWords, eventWords) || within(eventWords, liveWords)) nameScore = Math.max(nameScore, 0.8);
  let score = 3 * organiserScore + 3 * nameScore;
  const country = race.countryCode === null ? undefined : ALPHA2[race.countryCode.toUpperCase()];
  if (country !== undefined && competition.country !== null) score += country === competition.country ? 0.5 : -2;
  if (race.raceCount > 1) {
    if (competition.multiDayStage === race.raceNumber) score += 1;
    else if (competition.multiDayStage !== null) score -= 2;
  } else if (competition.multiDayStage !== null && competition.multiDayStage > 1) score -= 1;
  return Math.round(score * 100) / 100;
}

/**
 * The live competition of a race among `candidates` (the day's competitions): one the event links
 * to wins outright; else the best score when it is high and clearly ahead; else the best few to
 * offer; else none.
 */
export function matchCompetition(race: RaceToMatch, candidates: readonly LiveCompetition[]): CompetitionMatch {
  const sameDay = candidates.filter((c) => c.date === race.date);
  const linked = sameDay.filter((c) => race.linkedIds.includes(c.id));
  // Two linked competitions on one day: the stages of one event, told apart by the score below.
  if (linked.length === 1)
    return { kind: 'confident', competition: linked[0]!, score: Number.POSITIVE_INFINITY, by: 'link' };
  const pool = linked.length > 1 ? linked : sameDay;
  const scored = pool
    .map((competition) => ({ competition, score: scoreCompetition(race, competition) }))
    .sort((a, b) => b.score - a.score || a.competition.id - b.competition.id);
  const [best, second] = scored;
  if (best === undefined) return { kind: 'none' };
  if (
    (linked.length > 1 || best.score >= CONFIDENT_FROM) &&
    (second === undefined || best.score - second.score >= CONFIDENT_MARGIN)
  )
    return {
      kind: 'confident',
      competition: best.competition,
      score: best.score,
      by: linked.length > 1 ? 'link' : 'search',
    };
  const offered = scored.filter((s) => s.score >= UNCERTAIN_FROM || linked.length > 1).slice(0, MAX_OFFERED);
  return offered.length > 0 ? { kind: 'uncertain', candidates: offered } : { kind: 'none' };
}

/** Which service an address is on: LiveResultat (either API reads its ids) or the Norwegian LiveRes (ids of its own). */
export type LiveService = 'liveresultat' | 'liveres';

const HOSTS: Record<string, LiveService> = {
  'liveresultat.orientering.se': 'liveresultat',
  'api.orienteering.services': 'liveresultat',
  'liveres.live': 'liveres',
  'api.liveres.live': 'liveres',
};

export type ParsedLiveAddress =
  | { id: number; service: LiveService | null }
  | { problem: 'empty' | 'not-an-address' | 'other-site' | 'no-competition' };

/**
 * A competition given by an admin: a bare id (`40488`), or a LiveResultat or LiveRes address
 * (`https://liveresultat.orientering.se/followfull.php?comp=40488&lang=sv#H21`). Only the id is
 * taken: the bot reads it from the services its operator configured, never from the address typed.
 */
export function parseLiveAddress(text: string): ParsedLiveAddress {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'empty' };
  if (/^\d{1,9}$/.test(trimmed)) {
    const id = Number(trimmed);
    return id > 0 ? { id, service: null } : { problem: 'not-an-address' };
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return { problem: 'not-an-address' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'not-an-address' };
  const service = HOSTS[url.hostname.toLowerCase().replace(/^www\./, '')];
  if (service === undefined) return { problem: 'other-site' };
  const fromQuery = url.searchParams.get('comp');
  const fromPath = /\/competitions\/(\d{1,9})(?:\/|$)/.exec(url.pathname)?.[1];
  const raw = fromQuery !== null && /^\d{1,9}$/.test(fromQuery.trim()) ? fromQuery.trim() : fromPath;
  const id = raw === undefined ? 0 : Number(raw);
  return id > 0 ? { id, service } : { problem: 'no-competition' };
}

/** Live competition ids linked from texts of the event (its message, its documents' and links' addresses), each once. */
export function liveLinksIn(texts: readonly (string | null | undefined)[]): { id: number; service: LiveService }[] {
  const found = new Map<string, { id: number; service: LiveService }>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(/https?:\/\/[^\s<>"')\]]+/gi)) {
      const parsed = parseLiveAddress(match[0]);
      if ('id' in parsed && parsed.service !== null)
        found.set(`${parsed.service}:${parsed.id}`, { id: parsed.id, service: parsed.service });
    }
  }
  return [...found.values()];
}

/**
 * What does not fit in a competition an admin set by hand: another day than the race's is refused
 * by the caller (the live data would be of another race); a weak score is only worth a word to the admin.
 */
export function linkedCompetitionProblems(race: RaceToMatch, competition: LiveCompetition): ('other-day' | 'unlike')[] {
  if (competition.date !== race.date) return ['other-day'];
  return scoreCompetition(race, competition) < UNCERTAIN_FROM ? ['unlike'] : [];
}
