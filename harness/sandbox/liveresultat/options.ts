/**
 * What the sandbox LiveResultat does where the services differ or the sources are silent
 * (docs/live-results.md marks those points as unverified), and which of the documented quirks it
 * shows. Every field can be changed on a running sandbox (`sandbox.options`); answers follow at once.
 */
export interface LiveOptions {
  /** The status of a runner without a result: the REST API's (9 or 10; the sources disagree) … */
  restWaitingStatus: 9 | 10;
  /** … and api.php's (9 for anyone with no finish record). */
  legacyWaitingStatus: 9 | 10;
  /** Whether the REST API gives an unreached radio control like api.php (`""`, status 1) or leaves its keys out. */
  restUnreachedSplits: 'like-legacy' | 'omitted';
  /** The envelope of the REST competition list: `{"competitions":[…]}` or a bare array. */
  restListEnvelope: 'object' | 'array';
  /** The REST club results' envelope: `{"results":[…]}` or api.php's `{"clubName", "results"}`. */
  restClubEnvelope: 'results' | 'clubName';
  /** A tie's place on the REST API: the number repeated, or api.php's `"="`. */
  restTiedPlace: 'repeat' | 'equals';
  /** Whether `/competitions/{id}` names the zone (`Europe/Stockholm`) or leaves it empty. */
  timezone: 'named' | 'empty';
  /** The export's `eventid`: the competition's id, or left out. */
  exportEventId: 'id' | 'absent';
  /** Whether the REST API compresses answers the client accepts compressed (gzip, br). */
  compress: boolean;
  /** Relay legs' time: the team's running total (IOF XML 3.0 uploads) or the leg's own. */
  relayLegTime: 'cumulative' | 'leg';
  /** Club strings as uploaded: Eventor's short names (what most imports carry) or full names. */
  clubNames: 'short' | 'name';
  /** `D21`/`H21` uploaded as `D20/21`/`H20/21` (classes with `/` in their names). */
  slashClasses: boolean;
  /** The first class with runners uploaded twice: each runner also as a "not started" ghost row. */
  ghostRows: boolean;
  /** A raw tab in the first runner's name, which makes api.php's JSON invalid. */
  tabInName: boolean;
  /** The share of runners whose start time is missing in api.php and the export (0 to 1). */
  missingStarts: number;
  /** One finish uploaded a minute wrong and corrected a quarter of an hour later. */
  lateCorrection: boolean;
  /** A second competition on each race day, by another organiser, to match against. */
  decoys: boolean;
  /** Minutes after the start time that a non-starter is marked DNS. */
  dnsAfterMinutes: number;
}

export const DEFAULT_LIVE_OPTIONS: Readonly<LiveOptions> = {
  restWaitingStatus: 10,
  legacyWaitingStatus: 9,
  restUnreachedSplits: 'like-legacy',
  restListEnvelope: 'object',
  restClubEnvelope: 'results',
  restTiedPlace: 'repeat',
  timezone: 'named',
  exportEventId: 'id',
  compress: true,
  relayLegTime: 'cumulative',
  clubNames: 'short',
  slashClasses: true,
  ghostRows: true,
  tabInName: true,
  missingStarts: 0.1,
  lateCorrection: true,
  decoys: true,
  dnsAfterMinutes: 10,
};
