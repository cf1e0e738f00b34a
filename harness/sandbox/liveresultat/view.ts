/**
 * A class as LiveResultat shows it at one moment of the sandbox clock: who has started, which
 * radio controls each runner passed (with the place among those through and the time behind the
 * best there), who finished with which place and time behind, and each row's last change. Both
 * APIs write their rows from this.
 */
import type { LiveClassRecord, LiveRaceRecord, LiveRunnerRecord } from './races.js';

export interface SplitView {
  code: number;
  /** Hundredths from the start; null until passed. */
  time: number | null;
  place: number | null;
  timeplus: number | null;
  /** Unix seconds the punch arrived. */
  changed: number | null;
}

export interface RowView {
  runner: LiveRunnerRecord;
  /** LiveResultat's status code (0 OK, 1 DNS, 2 DNF, 3 MP, 4 DSQ, 9/10 no result yet). */
  status: number;
  /** Hundredths; null without a result. */
  result: number | null;
  place: number | null;
  /** Whether the runner shares the place of the finisher above. */
  tied: boolean;
  timeplus: number | null;
  splits: SplitView[];
  progress: number;
  /** Unix seconds of the row's last change, and of its start time's. */
  changed: number;
  startChanged: number;
  /** A punch, finish or correction in the last 120 s (api.php's `DT_RowClass`). */
  fresh: boolean;
}

const FINAL_SORT: Record<number, number> = { 0: 0, 3: 2, 2: 3, 4: 4, 5: 4, 1: 5 };

/** The rows of a class at `now` (epoch ms), in LiveResultat's order: placed, still out, then the rest; none before the upload. */
export function classRows(race: LiveRaceRecord, cls: LiveClassRecord, now: number, waitingStatus: number): RowView[] {
  if (now < race.uploadAt) return [];
  const uploaded = Math.floor(race.uploadAt / 1000);
  const passed = (runner: LiveRunnerRecord) => runner.radios.filter((p) => p.at <= now);
  // Places and time behind at each radio control among those through by now.
  const splitStanding = new Map<number, { times: number[] }>();
  for (const control of cls.radioControls) {
    const times = cls.runners
      .filter((r) => !r.ghost)
      .flatMap((r) =>
        passed(r)
          .filter((p) => p.code === control.code)
          .map((p) => p.time),
      )
      .sort((a, b) => a - b);
    splitStanding.set(control.code, { times });
  }
  const rows: RowView[] = cls.runners.map((runner) => {
    const final = runner.final !== null && runner.final.at <= now ? runner.final : null;
    const corrected = runner.correction !== null && runner.correction.at <= now;
    const result =
      final?.result == null
        ? null
        : runner.correction !== null && !corrected
          ? runner.correction.wrongResult
          : final.result;
    const punches = passed(runner);
    const splits: SplitView[] = cls.radioControls.map((control) => {
      const punch = punches.find((p) => p.code === control.code);
      if (!punch) return { code: control.code, time: null, place: null, timeplus: null, changed: null };
      const times = splitStanding.get(control.code)!.times;
      return {
        code: control.code,
        time: punch.time,
        place: times.indexOf(punch.time) + 1,
        timeplus: punch.time - times[0]!,
        changed: Math.floor(punch.at / 1000),
      };
    });
    const moments = [race.uploadAt, ...punches.map((p) => p.at)];
    if (final) moments.push(final.at);
    if (corrected) moments.push(runner.correction!.at);
    const lastChange = Math.max(...moments);
    const status = final?.status ?? waitingStatus;
    const done = final !== null;
    return {
      runner,
      status,
      result: status === 0 || status === 3 ? result : null,
      place: null,
      tied: false,
      timeplus: null,
      splits,
      progress: done
        ? 100
        : cls.radioControls.length === 0
          ? 0
          : (punches.length * 100) / (cls.radioControls.length + 1),
      changed: Math.floor(lastChange / 1000),
      startChanged: uploaded,
      fresh: lastChange > race.uploadAt && now - lastChange < 120_000,
    };
  });
  const placed = rows.filter((row) => row.status === 0 && row.result !== null).sort((a, b) => a.result! - b.result!);
  const best = placed[0]?.result ?? 0;
  placed.forEach((row, i) => {
    const above = placed[i - 1];
    row.tied = above !== undefined && above.result === row.result;
    row.place = row.tied ? above!.place : i + 1;
    row.timeplus = row.result! - best;
  });
  const group = (row: RowView) =>
    row.place !== null ? 0 : row.status === 9 || row.status === 10 ? 1 : 1 + (FINAL_SORT[row.status] ?? 5);
  return rows
    .map((row, order) => ({ row, order }))
    .sort(
      (a, b) =>
        group(a.row) - group(b.row) ||
        (a.row.place ?? 0) - (b.row.place ?? 0) ||
        b.row.progress - a.row.progress ||
        (a.row.runner.start ?? 0) - (b.row.runner.start ?? 0) ||
        a.order - b.order,
    )
    .map(({ row }) => row);
}
