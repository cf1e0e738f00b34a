/**
 * Result rows, as both APIs send them, into the model's runners (docs/live-results.md#what-a-row-becomes):
 * status codes into the board's statuses, hundredths into whole seconds, places resolved (a tie's
 * `"="` takes the place above it), the `splits` map read key by key with its suffixes parsed
 * explicitly, and the rows a double upload left behind folded into one runner each.
 */
import { LiveClassResults, type LiveControl, type LiveRadio, type LiveRunner, type LiveStatus } from './model.js';
import { behindSeconds, cleanText, hundredthsToSeconds, integer, placeNumber } from './text.js';

/** A row as it arrives: an object whose fields may be numbers or strings (api.php writes most as strings). */
export type WireRow = Readonly<Record<string, unknown>>;

/** The radio controls of a class from `splitControls` / `splitcontrols`: start (100) and finish (1000) are not radios. */
export function controlsFrom(value: unknown): LiveControl[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<number>();
  const controls: LiveControl[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue;
    const code = integer((item as WireRow).code);
    if (code === null || code <= 0 || code === 100 || code === 1000 || seen.has(code)) continue;
    seen.add(code);
    const name = cleanText((item as WireRow).name);
    controls.push({ code, name: name === '' ? null : name });
  }
  return controls;
}

/**
 * A status code (docs/live-results.md#status-codes) as the board's status. Codes 9 and 10, and an
 * OK without a time, say only "no result yet": whether the runner is out is decided from the punches
 * here and from the start time and the clock later (`statusAt`).
 */
export function liveStatusOf(code: number | null, time: number | null, punched: boolean): LiveStatus {
  switch (code) {
    case 0:
      return time !== null ? 'finished' : punched ? 'running' : 'not-started';
    case 1:
    case 11:
      return 'dns';
    case 2:
      return 'dnf';
    case 3:
      return 'mp';
    case 4:
      return 'dsq';
    case 13:
      return time !== null ? 'finished' : 'other';
    case null:
    case 9:
    case 10:
      return punched ? 'running' : 'not-started';
    default:
      return 'other';
  }
}

function radiosOf(splits: unknown, controls: readonly LiveControl[]): LiveRadio[] {
  const map = typeof splits === 'object' && splits !== null && !Array.isArray(splits) ? (splits as WireRow) : null;
  return controls.map((control) => {
    const key = String(control.code);
    const time = map === null ? null : hundredthsToSeconds(map[key]);
    return {
      code: control.code,
      time,
      place: time === null ? null : placeNumber(map![`${key}_place`]),
      behind: time === null ? null : behindSeconds(map![`${key}_timeplus`]),
    };
  });
}

/** One row as a runner, with its raw place kept apart for the tie rule. */
function runnerOf(
  row: WireRow,
  className: string,
  controls: readonly LiveControl[],
): { runner: LiveRunner; rawPlace: unknown } {
  const time = hundredthsToSeconds(row.result);
  const radios = radiosOf(row.splits, controls);
  const punched = radios.some((radio) => radio.time !== null);
  const status = liveStatusOf(integer(row.status), time, punched);
  const finished = status === 'finished';
  const changed = integer(row.changed);
  return {
    runner: {
      name: cleanText(row.name),
      club: cleanText(row.club),
      className,
      status,
      start: hundredthsToSeconds(row.start),
      time: finished ? time : null,
      place: finished ? placeNumber(row.place) : null,
      behind: finished ? behindSeconds(row.timeplus) : null,
      radios,
      changedAt: changed !== null && changed > 0 ? changed : null,
    },
    rawPlace: row.place,
  };
}

/** How much a row says: a final state beats punches beats nothing; then the newer change. */
function weight(runner: LiveRunner): number {
  const final = runner.status !== 'not-started' && runner.status !== 'running';
  const punches = runner.radios.filter((radio) => radio.time !== null).length;
  return (final ? 1_000_000 : 0) + punches;
}

/**
 * A class's rows as runners, in the source's order. Rows of one name, club and start time (a
 * double upload's ghost, docs/live-results.md#double-uploads) become one: the one with a result,
 * else the one with more punches, else the newer change. A tie (`"="`) takes the place of the
 * finisher above it.
 */
export function runnersFromRows(rows: unknown, className: string, controls: readonly LiveControl[]): LiveRunner[] {
  if (!Array.isArray(rows)) return [];
  const chosen = new Map<string, { runner: LiveRunner; rawPlace: unknown; order: number }>();
  rows.forEach((row, order) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return;
    const read = runnerOf(row as WireRow, className, controls);
    if (read.runner.name === '') return;
    // A double upload repeats the start time; namesakes of one club and class start apart.
    const key = `${read.runner.name.toLowerCase()}\u0000${read.runner.club.toLowerCase()}\u0000${read.runner.start ?? ''}`;
    const before = chosen.get(key);
    if (
      before === undefined ||
      weight(read.runner) > weight(before.runner) ||
      (weight(read.runner) === weight(before.runner) && (read.runner.changedAt ?? 0) > (before.runner.changedAt ?? 0))
    )
      chosen.set(key, { ...read, order: before?.order ?? order });
  });
  const ordered = [...chosen.values()].sort((a, b) => a.order - b.order);
  let placeAbove: number | null = null;
  return ordered.map(({ runner, rawPlace }) => {
    if (runner.status !== 'finished') return runner;
    const tied = typeof rawPlace === 'string' && rawPlace.trim() === '=';
    const place = tied ? placeAbove : runner.place;
    placeAbove = place ?? placeAbove;
    return place === runner.place ? runner : { ...runner, place };
  });
}

/** A class's results, checked against the model's schema (a shape we did not expect fails here, not later). */
export function classResultsOf(className: string, controls: LiveControl[], rows: unknown): LiveClassResults {
  return LiveClassResults.parse({
    className,
    radioControls: controls,
    runners: runnersFromRows(rows, className, controls),
  });
}

/**
 * A runner's status at `secondsIntoDay` (seconds after local midnight of the competition day): one
 * with no result and no punch counts as out once the start time has passed.
 */
export function statusAt(runner: LiveRunner, secondsIntoDay: number): LiveStatus {
  if (runner.status !== 'not-started') return runner.status;
  return runner.start !== null && runner.start <= secondsIntoDay ? 'running' : 'not-started';
}

/** The last radio control the runner passed (the latest time), or null. */
export function lastRadio(runner: LiveRunner): LiveRadio | null {
  let last: LiveRadio | null = null;
  for (const radio of runner.radios)
    if (radio.time !== null && (last === null || radio.time >= last.time!)) last = radio;
  return last;
}
