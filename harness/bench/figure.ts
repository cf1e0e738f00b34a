/** One measured figure and its line in the bench's output; shared by main.ts and the figures it runs. */

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  /** Without a target the figure is information only: printed, never missed. */
  op?: '<=' | '>=';
  target?: number;
  /** What it measures in a few words: its row in docs/benchmarks.md (`npm run bench -- --markdown`). */
  title?: string;
  /** How it is measured, in full: its item in the list below that table. */
  about?: string;
}

/** A figure with a target, as most are. */
export type TargetedFigure = BenchFigure & { op: '<=' | '>='; target: number };

/** `BENCH <name> <value> <unit> target <op> <target>` (`BENCH <name> <value> <unit>` for information only), the line scripts read. */
export function formatFigure(f: BenchFigure): string {
  const line = `BENCH ${f.name} ${Number(f.value.toFixed(3))} ${f.unit}`;
  return f.op === undefined || f.target === undefined ? line : `${line} target ${f.op} ${Number(f.target.toFixed(3))}`;
}

/** Whether a figure is within its target (one without a target always is). */
export function meetsTarget(f: BenchFigure): boolean {
  if (f.op === undefined || f.target === undefined) return true;
  return f.op === '<=' ? f.value <= f.target : f.value >= f.target;
}
