/** Hand-made runners for the split analysis's tests (docs/splits.md#terms). */
import type { ResultStatus, SplitTime } from '../../src/eventor/model.js';
import type { RunnerInput } from '../../src/splits/analysis.js';

/** A runner from cumulative times (null = missing punch) and a result time. */
export function runner(
  name: string,
  codes: readonly string[],
  cumulative: readonly (number | null)[],
  time: number | null,
  status: ResultStatus = 'OK',
): RunnerInput {
  const splits: SplitTime[] = codes.map((controlCode, i) => {
    const t = cumulative[i] ?? null;
    return { controlCode, time: t, status: t === null ? 'Missing' : 'OK' };
  });
  return { name, status, time, splits };
}
