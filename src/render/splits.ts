/**
 * Split times as a phone-width code block (docs/iof-xml.md#split-times): times are cumulative, so a leg
 * is the difference from the previous control with a time; Missing controls show `-`, Additional
 * punches are skipped, and the finish leg is the total minus the last split.
 */
import type { RaceResult } from '../eventor/answers.js';
import { formatElapsed } from '../eventor/time.js';
import { type Language, t } from '../i18n/index.js';
import { codeSafe } from './format.js';

export interface SplitRow {
  /** 1-based control number on the course; null for the finish. */
  number: number | null;
  code: string;
  /** Seconds, null when unknown (missing punch, unknown time, or the previous time unknown). */
  leg: number | null;
  cumulative: number | null;
}

export function splitRows(result: Pick<RaceResult, 'splits' | 'time'>): SplitRow[] {
  const rows: SplitRow[] = [];
  let previous: number | null = 0;
  let number = 0;
  for (const split of result.splits) {
    if (split.status === 'Additional') continue;
    number += 1;
    if (split.status === 'Missing' || split.time === null) {
      rows.push({ number, code: split.controlCode, leg: null, cumulative: null });
      previous = null;
      continue;
    }
    rows.push({
      number,
      code: split.controlCode,
      leg: previous === null ? null : split.time - previous,
      cumulative: split.time,
    });
    previous = split.time;
  }
  if (result.time !== null) {
    rows.push({
      number: null,
      code: '',
      leg: previous === null ? null : result.time - previous,
      cumulative: result.time,
    });
  }
  return rows;
}

const CODE_WIDTH = 6;

/** The table, at most 27 characters wide, fenced as a code block. */
export function splitTable(result: Pick<RaceResult, 'splits' | 'time'>, language: Language): string {
  const time = (seconds: number | null) => (seconds === null ? '-' : formatElapsed(seconds));
  const line = (number: string, code: string, leg: string, total: string) =>
    `${number.padStart(2)}  ${code.slice(0, CODE_WIDTH).padEnd(CODE_WIDTH)} ${leg.padStart(7)} ${total.padStart(8)}`.trimEnd();
  const lines = [
    line('#', t(language, 'render.splits.code'), t(language, 'render.splits.leg'), t(language, 'render.splits.total')),
  ];
  for (const row of splitRows(result)) {
    lines.push(
      line(
        row.number === null ? '' : String(row.number),
        row.number === null ? t(language, 'render.splits.finish') : codeSafe(row.code),
        time(row.leg),
        time(row.cumulative),
      ),
    );
  }
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}
