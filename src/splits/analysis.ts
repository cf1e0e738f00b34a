/**
 * Split-time analysis (docs/splits.md): leg times, best legs, the ideal time, leg ranks, time behind
 * the ideal and the WinSplits-style estimate of time lost. Pure: it reads the domain model's records
 * and knows nothing of Discord, rendering or files.
 */
import type { ResultStatus, SplitTime } from '../eventor/model.js';

/** A leg counts as a mistake only when the loss is at least this many seconds (docs/splits.md#mistakes). */
export const MISTAKE_MIN_SECONDS = 20;
/** ...and at least this fraction of the expected leg time (docs/splits.md#mistakes). */
export const MISTAKE_MIN_FRACTION = 0.1;
/** The leg reference is the mean of this fastest share of the leg times (docs/splits.md#time-lost). */
export const REFERENCE_SHARE = 0.25;
/** Fewer runners with a time on a leg than this and its loss is not estimated (docs/splits.md#too-few-runners). */
export const MIN_RUNNERS = 3;
/**
 * The analysis gives way (a step of its generator) after about this much work, counted in leg
 * times handled: a few milliseconds at most even on a busy host, so a caller slicing it keeps the
 * event loop free (docs/splits.md#how-long-it-takes).
 */
export const STEP_WORK = 2_000;

/** One runner's result on one course, as the analysis needs it. */
export interface RunnerInput {
  name: string;
  status: ResultStatus;
  /** Result time in seconds; null when there is none (not finished). */
  time: number | null;
  /** Cumulative times per control, in course order; `Additional` punches are ignored. */
  splits: readonly Readonly<SplitTime>[];
  /** Who ran and for which club, when the list says: carried through to the output, never compared. */
  personId?: string;
  organisationId?: string;
}

export interface LegAnalysis {
  /** Control code the leg goes to; `F` for the finish. */
  to: string;
  /** Seconds; null when either end has no usable time. */
  time: number | null;
  /** Competition rank (1, 1, 3) among every runner with a time on the leg, whatever the status. */
  rank: number | null;
  /** Cumulative time minus the cumulative ideal at this control. */
  behind: number | null;
  /** Estimated seconds lost on the leg (OK runners, enough runners on the leg); 0 when not slower. */
  lost: number | null;
  mistake: boolean;
}

export interface RunnerAnalysis {
  name: string;
  /** As given in the input (absent when it gave none), so callers can find their runners. */
  personId?: string;
  organisationId?: string;
  status: ResultStatus;
  time: number | null;
  /** Place among the OK runners of the class (competition ranking); null for the others. */
  place: number | null;
  legs: LegAnalysis[];
  /** Sum of the losses on mistake legs; null when no loss could be estimated. */
  lost: number | null;
  /** The runner's normal performance index (1 = reference speed); null when not estimated. */
  performance: number | null;
}

export interface CourseAnalysis {
  /** The ordered control codes (without start and finish). */
  controls: string[];
  /** Best time per leg, the finish leg last; null when no runner has a time on the leg. */
  bestLegs: (number | null)[];
  /** How many runners have a time on each leg, the finish leg last: the "of" of a leg rank. */
  legRunners: number[];
  /** Sum of the best legs; null when some leg has no time at all. */
  ideal: number | null;
  /** True when fewer than {@link MIN_RUNNERS} runners ran this course: ranks and losses say little. */
  tooFewRunners: boolean;
  /**
   * True when the course was over the analysis's limits (docs/splits.md#limits) and was not
   * analysed: its results have status, time and place, but no legs.
   */
  tooLarge: boolean;
  results: RunnerAnalysis[];
}

/** Tenths of a second, the finest resolution results carry: ties and thresholds compare these integers. */
const tenths = (seconds: number): number => Math.round(seconds * 10);
const seconds = (t: number): number => t / 10;

/**
 * Cumulative times in tenths, one per control and the finish last. Missing punches, controls without
 * a time, control times after the result time and times earlier than one before them (clock errors)
 * are null (docs/splits.md#bad-data).
 */
function cumulativeTimes(runner: RunnerInput): (number | null)[] {
  const finish = runner.time === null || !Number.isFinite(runner.time) ? null : tenths(runner.time);
  const times: (number | null)[] = [];
  let latest = 0;
  const take = (value: number | null, ceiling: number | null): number | null => {
    if (value === null || !Number.isFinite(value)) return null;
    const t = tenths(value);
    if (t < latest || t < 0 || (ceiling !== null && t > ceiling)) return null;
    latest = t;
    return t;
  };
  for (const split of runner.splits) {
    if (split.status === 'Additional') continue;
    times.push(split.status === 'Missing' ? null : take(split.time, finish));
  }
  times.push(take(runner.time, null));
  return times;
}

/**
 * The indices of the non-null values, smallest value first and equal values in index order. Leg
 * times are whole tenths and never negative, so each value and its index are packed into one
 * double and sorted by the typed array's own numeric sort: one n log n sort per leg, without a
 * comparator called n log n times (docs/splits.md#how-long-it-takes). Other values fall back to a
 * comparator.
 */
export function ascendingIndices(values: readonly (number | null)[]): number[] {
  const span = 2 ** Math.ceil(Math.log2(values.length + 1));
  const packable = values.every((v) => v === null || (Number.isInteger(v) && v >= 0 && v * span < 2 ** 53));
  if (!packable) {
    const order: number[] = [];
    values.forEach((v, i) => v !== null && order.push(i));
    return order.sort((a, b) => values[a]! - values[b]! || a - b);
  }
  const keys = new Float64Array(values.length);
  let m = 0;
  values.forEach((v, i) => {
    if (v !== null) keys[m++] = v * span + i;
  });
  const sorted = keys.subarray(0, m).sort();
  const order = new Array<number>(m);
  for (let j = 0; j < m; j++) order[j] = sorted[j]! % span;
  return order;
}

/**
 * Competition ranking (1, 1, 3) of the non-null values, smallest first, from their ascending
 * order: each value's rank is the place of the first of its equals. (Searching the sorted values
 * once per value made this n².)
 */
export function competitionRanks(
  values: readonly (number | null)[],
  order: readonly number[] = ascendingIndices(values),
): (number | null)[] {
  const ranks: (number | null)[] = values.map(() => null);
  order.forEach((index, k) => {
    const previous = k === 0 ? null : order[k - 1]!;
    ranks[index] = previous !== null && values[previous] === values[index] ? ranks[previous]! : k + 1;
  });
  return ranks;
}

/** Mean of the fastest share of the leg times, in tenths (docs/splits.md#time-lost), from their ascending order. */
function legReference(times: readonly (number | null)[], order: readonly number[]): number | null {
  let first = 0;
  while (first < order.length && times[order[first]!]! <= 0) first++;
  const n = order.length - first;
  if (n < MIN_RUNNERS) return null;
  const m = Math.max(1, Math.ceil(REFERENCE_SHARE * n));
  let sum = 0;
  for (let j = first; j < first + m; j++) sum += times[order[j]!]!;
  return sum / m;
}

/** Round half away from zero to whole seconds, from tenths. */
const roundSeconds = (t: number): number => Math.sign(t) * Math.round(Math.abs(t) / 10);

/** Analyse the runners of one course (all with the same ordered control codes). */
export function analyseCourse(controls: readonly string[], runners: readonly RunnerInput[]): CourseAnalysis {
  return completed(analyseCourseSteps(controls, runners));
}

/** Runs the steps of an analysis to their end without giving way: for callers with nothing else to do. */
export function completed<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Which runners' legs a caller keeps (`keep` of {@link analyseCourseSteps}). */
export type KeepRunner = (runner: Pick<RunnerInput, 'name' | 'personId' | 'organisationId'>) => boolean;

/**
 * {@link analyseCourse} in steps: the generator gives way after about {@link STEP_WORK} leg times
 * handled, so a caller can spread a large course over turns of its event loop. Every step is n log
 * n or less in the runners (docs/splits.md#how-long-it-takes). With `keep`, only those runners get
 * their legs and losses (the others come with status and time, no legs): the course's figures are
 * still every runner's, and a caller showing a few runners does not make every runner's legs.
 */
export function* analyseCourseSteps(
  controls: readonly string[],
  runners: readonly RunnerInput[],
  keep?: KeepRunner,
): Generator<void, CourseAnalysis, void> {
  const legCount = controls.length + 1;
  // Runners per step, each costing about a leg time per control.
  const runnersPerStep = Math.max(1, Math.floor(STEP_WORK / legCount));
  const cumulative: (number | null)[][] = [];
  const legs: (number | null)[][] = [];
  for (let r = 0; r < runners.length; r++) {
    const c = cumulativeTimes(runners[r]!);
    cumulative.push(c);
    legs.push(
      c.map((value, k) => {
        const previous = k === 0 ? 0 : c[k - 1]!;
        return value === null || previous === null ? null : value - previous;
      }),
    );
    if ((r + 1) % runnersPerStep === 0) yield;
  }
  const best: (number | null)[] = [];
  const counts: number[] = [];
  // Rank of runner r on leg k at r * legCount + k; 0 where the runner has no time on the leg.
  const ranks = new Int32Array(runners.length * legCount);
  const references: (number | null)[] = [];
  let work = 0;
  for (let k = 0; k < legCount; k++) {
    const column = legs.map((l) => l[k] ?? null);
    let fastest: number | null = null;
    let count = 0;
    for (const v of column) {
      if (v === null) continue;
      count++;
      if (fastest === null || v < fastest) fastest = v;
    }
    best.push(fastest);
    counts.push(count);
    const order = ascendingIndices(column);
    competitionRanks(column, order).forEach((rank, r) => (ranks[r * legCount + k] = rank ?? 0));
    references.push(legReference(column, order));
    work += runners.length;
    if (work >= STEP_WORK) {
      work = 0;
      yield;
    }
  }
  const ideal = best.every((b) => b !== null) ? best.reduce<number>((sum, b) => sum + b!, 0) : null;
  const idealAt: (number | null)[] = [];
  let sum: number | null = 0;
  for (const b of best) {
    sum = sum === null || b === null ? null : sum + b;
    idealAt.push(sum);
  }

  const results: RunnerAnalysis[] = [];
  for (let r = 0; r < runners.length; r++) {
    const runner = runners[r]!;
    if (keep && !keep(runner)) {
      results.push(withoutLegs(runner));
      continue;
    }
    const own = legs[r]!;
    const loss = runner.status === 'OK' ? estimateLoss(own, references) : null;
    results.push({
      name: runner.name,
      ...(runner.personId !== undefined ? { personId: runner.personId } : {}),
      ...(runner.organisationId !== undefined ? { organisationId: runner.organisationId } : {}),
      status: runner.status,
      time: runner.time === null ? null : seconds(tenths(runner.time)),
      place: null,
      performance: loss?.performance ?? null,
      lost: loss === null ? null : roundSeconds(loss.total),
      legs: own.map((time, k) => {
        const at = cumulative[r]![k]!;
        const ref = idealAt[k]!;
        const lost = loss?.lost[k] ?? null;
        return {
          to: k < controls.length ? controls[k]! : 'F',
          time: time === null ? null : seconds(time),
          rank: ranks[r * legCount + k]! || null,
          behind: at === null || ref === null ? null : seconds(at - ref),
          lost: lost === null ? null : Math.max(0, roundSeconds(lost)),
          mistake: loss?.mistake[k] ?? false,
        };
      }),
    });
    if ((r + 1) % runnersPerStep === 0) yield;
  }
  const starters = cumulative.filter((c) => c.some((v) => v !== null)).length;
  return {
    controls: [...controls],
    bestLegs: best.map((b) => (b === null ? null : seconds(b))),
    legRunners: counts,
    ideal: ideal === null ? null : seconds(ideal),
    tooFewRunners: starters < MIN_RUNNERS,
    tooLarge: false,
    results,
  };
}

/**
 * A course over the analysis's limits (docs/splits.md#limits), not analysed: who ran it, with
 * status and time (places are the class's, given by the caller), and no legs.
 */
export function unanalysedCourse(controls: readonly string[], runners: readonly RunnerInput[]): CourseAnalysis {
  return {
    controls: [...controls],
    bestLegs: [],
    legRunners: [],
    ideal: null,
    tooFewRunners: false,
    tooLarge: true,
    results: runners.map(withoutLegs),
  };
}

/** A runner with status and time, and no legs: over the limits, or not kept. */
function withoutLegs(runner: RunnerInput): RunnerAnalysis {
  return {
    name: runner.name,
    ...(runner.personId !== undefined ? { personId: runner.personId } : {}),
    ...(runner.organisationId !== undefined ? { organisationId: runner.organisationId } : {}),
    status: runner.status,
    time: runner.time === null || !Number.isFinite(runner.time) ? null : seconds(tenths(runner.time)),
    place: null,
    performance: null,
    lost: null,
    legs: [],
  };
}

interface LossEstimate {
  performance: number;
  /** Tenths lost per leg; null where the leg has no time or no reference. */
  lost: (number | null)[];
  mistake: boolean[];
  total: number;
}

/**
 * WinSplits' method (docs/splits.md#time-lost): normal speed (the weighted median of the
 * performance indices: the first, in increasing order, at which the accumulated weight reaches half
 * the total), expected leg times, losses over the thresholds.
 */
function estimateLoss(own: readonly (number | null)[], references: readonly (number | null)[]): LossEstimate | null {
  const usable: number[] = [];
  let total = 0;
  own.forEach((t, k) => {
    const ref = references[k];
    if (t !== null && t > 0 && ref !== null && ref !== undefined) {
      usable.push(k);
      total += ref;
    }
  });
  if (usable.length === 0 || total <= 0) return null;
  const index = own.map((t, k) => (t === null ? 0 : (references[k] ?? 0) / t));
  // A stable sort: equal indices keep the order of their legs.
  usable.sort((a, b) => index[a]! - index[b]!);
  let reached = 0;
  let performance = index[usable[usable.length - 1]!]!;
  for (const k of usable) {
    reached += references[k]!;
    if (reached * 2 >= total) {
      performance = index[k]!;
      break;
    }
  }
  const lost: (number | null)[] = own.map(() => null);
  const mistake: boolean[] = own.map(() => false);
  let sum = 0;
  for (const k of usable) {
    const expected = references[k]! / performance;
    const d = own[k]! - expected;
    lost[k] = d;
    mistake[k] = d >= tenths(MISTAKE_MIN_SECONDS) && d >= MISTAKE_MIN_FRACTION * expected;
    if (mistake[k]) sum += d;
  }
  return { performance, lost, mistake, total: sum };
}
