/**
 * The words on and about the pictures. The caller passes them in its language (src/charts knows no
 * catalogue, docs/splits.md#pictures); {@link ENGLISH} is the English set.
 */
export interface ChartWords {
  /** Axis label of the start and the finish. */
  start: string;
  finish: string;
  /** Y axis of the splits graph. */
  behindAxis: string;
  /** Y axis of the bar chart. */
  lostAxis: string;
  /** X axis of the bar chart: the three lines under each bar. */
  legsAxis: string;
  /** Leg rank under a bar, e.g. `#3`. */
  legRank: (rank: number) => string;
  /** A control in running text, e.g. `control 7 (31)`; `null` number for the finish. */
  control: (number: number | null, code: string) => string;
  /** Marks a highlighted runner in the alt text, e.g. `Anna Berg (club)`. */
  highlighted: (name: string) => string;
  /** Opening of the splits graph's alt text. */
  graphAlt: (title: string, runners: number) => string;
  /** One runner in the splits graph's alt text; `behind` null when they did not finish. */
  graphRunnerAlt: (name: string, behind: string | null, worst: { control: string; lost: string } | null) => string;
  /** Opening of the bar chart's alt text. */
  barsAlt: (title: string, name: string, mistakes: number, lost: string) => string;
  /** One mistake in the bar chart's alt text. */
  mistakeAlt: (control: string, lost: string, rank: number | null) => string;
  /** The bar chart's alt text when there is no estimate of time lost. */
  noEstimate: string;
}

export const ENGLISH: ChartWords = {
  start: 'S',
  finish: 'F',
  behindAxis: 'Behind the ideal (min:s)',
  lostAxis: 'Time lost (min:s)',
  legsAxis: 'Leg to control · control code · leg rank',
  legRank: (rank) => `#${rank}`,
  control: (number, code) => (number === null ? 'the finish' : `control ${number} (${code})`),
  highlighted: (name) => `${name} (club)`,
  graphAlt: (title, runners) => `Splits graph of ${title}, ${runners} ${runners === 1 ? 'runner' : 'runners'}`,
  graphRunnerAlt: (name, behind, worst) =>
    `${name} ${behind === null ? 'did not finish' : `${behind} behind the ideal at the finish`}` +
    (worst === null ? '' : `, lost most at ${worst.control}, ${worst.lost}`),
  barsAlt: (title, name, mistakes, lost) =>
    `Time lost per leg by ${name}, ${title}: ${mistakes === 0 ? 'no mistakes' : `${mistakes} ${mistakes === 1 ? 'mistake' : 'mistakes'}, ${lost} lost in all`}`,
  mistakeAlt: (control, lost, rank) => `${lost} at ${control}${rank === null ? '' : `, leg rank ${rank}`}`,
  noEstimate: 'no estimate of time lost (too few runners or no valid result)',
};

/** The languages the pictures speak; the bot's own. */
export type ChartLanguage = 'en' | 'sv' | 'nb';

/** The words of the pictures in a language. */
export function chartWords(language: ChartLanguage): ChartWords {
  // Swedish and Norwegian sets still to be written: English until then.
  return language === 'en' ? ENGLISH : ENGLISH;
}
