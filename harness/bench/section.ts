/**
 * One part of `npm run bench`: a named group of figures that sets up what it measures, measures it
 * side by side and returns its figures. `main.ts` runs the sections in turn; `--quick` asks each for
 * a CI-sized run (smaller documents, fewer interactions, a shorter simulated weekend) whose figures
 * keep the same names and targets.
 */
import type { BenchFigure } from './figure.js';

export interface BenchContext {
  /** A CI-sized run: each section scales its work down and says how in a `#` line. */
  quick: boolean;
  /** Writes one line of output (`#` lines are commentary, `BENCH` lines are figures). */
  write: (line: string) => void;
}

export interface BenchSection {
  /** What `--only <name>` selects. */
  name: string;
  /**
   * Set on a section that takes minutes on a 2-core machine, saying why (what it must wait for or
   * start). `--short` leaves these out; the page of figures gives each section's time.
   */
  long?: string;
  run(context: BenchContext): Promise<BenchFigure[]>;
}
