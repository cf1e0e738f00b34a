/**
 * The live-results client (docs/live-results.md): LiveResultat's two APIs behind one adapter, the
 * model they are read into, matching Eventor races and clubs to live competitions, and following a
 * competition for a club. It knows nothing of Discord, the store, the feeds or the Eventor client.
 */
export { finishesSince, FINAL_STATUSES, type FinishNews, runnerKey } from './changes.js';
export {
  createLiveSources,
  DEFAULT_FALLBACK_AFTER,
  DEFAULT_FALLBACK_FOR_MS,
  LiveClient,
  type LiveClientOptions,
  type LiveEndpoints,
  PUBLIC_LIVE_ENDPOINTS,
} from './client.js';
export {
  type ClubAliases,
  clubAliases,
  type ClubEntry,
  type ClubNames,
  clubRunners,
  type ClubStringMatch,
  classFits,
  crossCheck,
  matchClubStrings,
  runnerOfPerson,
  type RunnerCheck,
} from './clubs.js';
export { clockText, competitionMidnight, competitionZone, secondsIntoDay } from './day.js';
export { LiveError, type LiveErrorCode } from './errors.js';
export { clubEntriesInEntries, clubEntriesInStartList, raceToMatch } from './eventor.js';
export { DEFAULT_LIVE_MAX_BYTES, DEFAULT_LIVE_TIMEOUT_MS, LIVE_ACCEPT_ENCODING, type LiveHttpOptions } from './http.js';
export {
  type CompetitionMatch,
  linkedCompetitionProblems,
  liveLinksIn,
  matchCompetition,
  type ParsedLiveAddress,
  parseLiveAddress,
  type RaceToMatch,
  scoreCompetition,
} from './match.js';
export * from './model.js';
export { lastRadio, statusAt } from './rows.js';
export { LegacySource, type LiveSource, RestSource } from './sources.js';
export { failureBackoffMs, MIN_INTERVAL_MS, pollTier, type Tier, TIER_INTERVALS_MS } from './tiers.js';
export { CompetitionTracker, type TrackerState } from './tracker.js';
