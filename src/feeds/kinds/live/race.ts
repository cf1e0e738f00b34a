/**
 * What the store keeps of a race the live kind follows (`live_races.race` and `candidates`, JSON):
 * its names, the club's names and the club's runners as Eventor lists them, read back with a schema
 * so a row written by another version, or damaged, is a race without runners rather than a crash.
 */
import { z } from 'zod';
import type { ClubEntry } from '../../../live/clubs.js';
import type { RaceToMatch } from '../../../live/match.js';
import { ledgerKey } from '../../delivery/keys.js';

/** The live kind's ledger feed: the boards, the finish messages and the offers to the admins. */
export const LIVE_FEED = 'live' as const;

const Entry = z.object({
  personId: z.string().nullable(),
  name: z.string(),
  className: z.string().nullable(),
  leg: z.number().int().nullable(),
});

export const LiveRaceRecord = z.object({
  eventName: z.string(),
  /** The race's own name in a multi-race event, else null. */
  raceName: z.string().nullable(),
  /** Its number in the event and how many races the event has (the stage of a multi-day event). */
  raceNumber: z.number().int().positive(),
  raceCount: z.number().int().positive(),
  /** The race's start (ISO), when Eventor gives one. */
  start: z.string().nullable(),
  /** The event's organisers and their country (ISO alpha-3), for checking a competition an admin gives. */
  organisers: z.array(z.object({ name: z.string().nullable(), shortName: z.string().nullable() })).default([]),
  countryCode: z.string().nullable().default(null),
  /** The names the club goes by: Eventor's and those its admins added. */
  clubNames: z.array(z.string()),
  /** The club's runners of the race in Eventor's start list, else its entries. */
  entries: z.array(Entry),
});
export type LiveRaceRecord = z.infer<typeof LiveRaceRecord>;

const EMPTY: LiveRaceRecord = {
  eventName: '',
  raceName: null,
  raceNumber: 1,
  raceCount: 1,
  start: null,
  organisers: [],
  countryCode: null,
  clubNames: [],
  entries: [],
};

/** A stored record, or an empty one when it does not read. */
export function readRaceRecord(text: string): LiveRaceRecord {
  try {
    const parsed = LiveRaceRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The race as people call it: the event's name, and the race's in a multi-race event. */
export function raceTitle(record: Pick<LiveRaceRecord, 'eventName' | 'raceName' | 'raceNumber' | 'raceCount'>): string {
  if (record.raceCount <= 1) return record.eventName;
  return `${record.eventName} – ${record.raceName ?? String(record.raceNumber)}`;
}

/** A competition offered to the admins when the match is uncertain. */
export const Candidate = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  organiser: z.string(),
  date: z.string(),
});
export type Candidate = z.infer<typeof Candidate>;

export function readCandidates(text: string): Candidate[] {
  try {
    const parsed = z.array(Candidate).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** The race as the matching reads it, from what the store keeps of it. */
export function recordToMatch(record: LiveRaceRecord, raceDay: string): RaceToMatch {
  return {
    date: raceDay,
    eventName: record.eventName,
    raceName: record.raceName,
    raceNumber: record.raceNumber,
    raceCount: record.raceCount,
    organisers: record.organisers,
    countryCode: record.countryCode,
    linkedIds: [],
  };
}

/** The club's runners of the record as the cross-check reads them. */
export function entriesOf(record: LiveRaceRecord): ClubEntry[] {
  return record.entries.map((e) => ({ personId: e.personId, name: e.name, className: e.className, leg: e.leg }));
}

/** The ledger key of a race's board in a server. */
export function boardKey(eventId: string, raceId: string): string {
  return ledgerKey(LIVE_FEED, eventId, raceId);
}
