/** One measured figure and its line in the bench's output; shared by main.ts and the figures it runs. */

export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  op: '<=' | '>=';
  target: number;
}

/** `BENCH <name> <value> <unit> target <op> <target>`, the line scripts read. */
export function formatFigure(f: BenchFigure): string {
  return `BENCH ${f.name} ${Number(f.value.toFixed(3))} ${f.unit} target ${f.op} ${Number(f.target.toFixed(3))}`;
}

/** Whether a figure is within its target. */
export function meetsTarget(f: BenchFigure): boolean {
  return f.op === '<=' ? f.value <= f.target : f.value >= f.target;
}
