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

/** One runner's result on one course, as the analysis needs it. */
export interface RunnerInput {
  name: string;
  /** The runner's Eventor person id, when the list gives one: the bot finds a member by it. */
  personId?: string;
  /** The runner's organisation id, when the list gives one: the bot finds the club's runners by it. */
  organisationId?: string;
  status: ResultStatus;
  /** Result time in seconds; null when there is none (not finished). */
  time: number | null;
  /** Cumulative times per control, in course order; `Additional` punches are ignored. */
  splits: readonly Readonly<SplitTime>[];
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
  /** As in {@link RunnerInput}; absent when the list gives none. */
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
  /** Sum of the best legs; null when some leg has no time at all. */
  ideal: number | null;
  /** True when fewer than {@link MIN_RUNNERS} runners ran this course: ranks and losses say little. */
  tooFewRunners: boolean;
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

/** Competition ranking (1, 1, 3) of the non-null values, smallest first. */
function competitionRanks(values: readonly (number | null)[]): (number | null)[] {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  return values.map((v) => (v === null ? null : sorted.indexOf(v) + 1));
}

/** Mean of the fastest share of the leg times, in tenths (docs/splits.md#time-lost). */
function legReference(times: readonly (number | null)[]): number | null {
  const sorted = times.filter((v): v is number => v !== null && v > 0).sort((a, b) => a - b);
  if (sorted.length < MIN_RUNNERS) return null;
  const m = Math.max(1, Math.ceil(REFERENCE_SHARE * sorted.length));
  return sorted.slice(0, m).reduce((sum, v) => sum + v, 0) / m;
}

/** The first value at which the cumulative weight reaches half the total (docs/splits.md#time-lost). */
function weightedMedian(items: { value: number; weight: number }[]): number | null {
  const total = items.reduce((sum, i) => sum + i.weight, 0);
  if (items.length === 0 || total <= 0) return null;
  const sorted = [...items].sort((a, b) => a.value - b.value);
  let reached = 0;
  for (const item of sorted) {
    reached += item.weight;
    if (reached * 2 >= total) return item.value;
  }
  return sorted[sorted.length - 1]!.value;
}

/** Round half away from zero to whole seconds, from tenths. */
const roundSeconds = (t: number): number => Math.sign(t) * Math.round(Math.abs(t) / 10);

/** Analyse the runners of one course (all with the same ordered control codes). */
export function analyseCourse(controls: readonly string[], runners: readonly RunnerInput[]): CourseAnalysis {
  const cumulative = runners.map(cumulativeTimes);
  const legCount = controls.length + 1;
  const legs = cumulative.map((c) =>
    c.map((value, k) => {
      const previous = k === 0 ? 0 : c[k - 1]!;
      return value === null || previous === null ? null : value - previous;
    }),
  );
  const best: (number | null)[] = [];
  const ranks: (number | null)[][] = runners.map(() => []);
  const references: (number | null)[] = [];
  for (let k = 0; k < legCount; k++) {
    const column = legs.map((l) => l[k] ?? null);
    const valid = column.filter((v): v is number => v !== null);
    best.push(valid.length === 0 ? null : Math.min(...valid));
    competitionRanks(column).forEach((rank, r) => ranks[r]!.push(rank));
    references.push(legReference(column));
  }
  const ideal = best.every((b) => b !== null) ? best.reduce<number>((sum, b) => sum + b!, 0) : null;
  const idealAt: (number | null)[] = [];
  let sum: number | null = 0;
  for (const b of best) {
    sum = sum === null || b === null ? null : sum + b;
    idealAt.push(sum);
  }

  const results = runners.map((runner, r): RunnerAnalysis => {
    const own = legs[r]!;
    const loss = runner.status === 'OK' ? estimateLoss(own, references) : null;
    return {
      name: runner.name,
      ...(runner.personId === undefined ? {} : { personId: runner.personId }),
      ...(runner.organisationId === undefined ? {} : { organisationId: runner.organisationId }),
      status: runner.status,
      time: runner.time === null ? null : seconds(tenths(runner.time)),
      place: null,
      performance: loss?.performance ?? null,
      lost: loss === null ? null : roundSeconds(loss.total),
      legs: own.map((time, k) => {
        const at = cumulative[r]![k]!;
        const ref = idealAt[k]!;
        const d = loss?.legs[k] ?? null;
        return {
          to: k < controls.length ? controls[k]! : 'F',
          time: time === null ? null : seconds(time),
          rank: ranks[r]![k]!,
          behind: at === null || ref === null ? null : seconds(at - ref),
          lost: d === null ? null : Math.max(0, roundSeconds(d.lost)),
          mistake: d?.mistake ?? false,
        };
      }),
    };
  });
  const starters = cumulative.filter((c) => c.some((v) => v !== null)).length;
  return {
    controls: [...controls],
    bestLegs: best.map((b) => (b === null ? null : seconds(b))),
    ideal: ideal === null ? null : seconds(ideal),
    tooFewRunners: starters < MIN_RUNNERS,
    results,
  };
}

interface LossEstimate {
  performance: number;
  /** Tenths; per leg null when the leg has no time or no reference. */
  legs: ({ lost: number; mistake: boolean } | null)[];
  total: number;
}

/** WinSplits' method (docs/splits.md#time-lost): normal speed, expected leg times, losses over the thresholds. */
function estimateLoss(own: readonly (number | null)[], references: readonly (number | null)[]): LossEstimate | null {
  const indices = own.flatMap((t, k) => {
    const ref = references[k];
    return t !== null && t > 0 && ref !== null && ref !== undefined ? [{ k, t, ref }] : [];
  });
  const performance = weightedMedian(indices.map(({ t, ref }) => ({ value: ref / t, weight: ref })));
  if (performance === null) return null;
  const legs: LossEstimate['legs'] = own.map(() => null);
  let total = 0;
  for (const { k, t, ref } of indices) {
    const expected = ref / performance;
    const lost = t - expected;
    const mistake = lost >= tenths(MISTAKE_MIN_SECONDS) && lost >= MISTAKE_MIN_FRACTION * expected;
    if (mistake) total += lost;
    legs[k] = { lost, mistake };
  }
  return { performance, legs, total };
}
