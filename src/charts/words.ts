/**
 * The words on and about the pictures. The caller passes them in its language (src/charts knows no
 * catalogue, docs/splits.md#pictures); {@link ENGLISH}, {@link SWEDISH} and {@link NORWEGIAN} are the sets.
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

/** Swedish, in the words orienteers use: sträcktider, idealtid, tidsförlust, bom; the finish is mål (M). */
export const SWEDISH: ChartWords = {
  start: 'S',
  finish: 'M',
  behindAxis: 'Efter idealtiden (min:s)',
  lostAxis: 'Tidsförlust (min:s)',
  legsAxis: 'Sträcka till kontroll · kontrollkod · sträckplacering',
  legRank: (rank) => `#${rank}`,
  control: (number, code) => (number === null ? 'målet' : `kontroll ${number} (${code})`),
  highlighted: (name) => `${name} (klubben)`,
  graphAlt: (title, runners) => `Sträcktider för ${title}, ${runners} löpare`,
  graphRunnerAlt: (name, behind, worst) =>
    `${name} ${behind === null ? 'fullföljde inte' : `${behind} efter idealtiden i mål`}` +
    (worst === null ? '' : `, förlorade mest vid ${worst.control}, ${worst.lost}`),
  barsAlt: (title, name, mistakes, lost) =>
    `Tidsförlust per sträcka för ${name}, ${title}: ${mistakes === 0 ? 'inga bommar' : `${mistakes} ${mistakes === 1 ? 'bom' : 'bommar'}, ${lost} förlorat totalt`}`,
  mistakeAlt: (control, lost, rank) => `${lost} vid ${control}${rank === null ? '' : `, sträckplacering ${rank}`}`,
  noEstimate: 'ingen uppskattning av tidsförlust (för få löpare eller inget godkänt resultat)',
};

/** Norwegian (bokmål): strekktider, idealtid, tidstap, bom, post; the finish is mål (M). */
export const NORWEGIAN: ChartWords = {
  start: 'S',
  finish: 'M',
  behindAxis: 'Bak idealtiden (min:s)',
  lostAxis: 'Tidstap (min:s)',
  legsAxis: 'Strekk til post · postkode · strekkplassering',
  legRank: (rank) => `#${rank}`,
  control: (number, code) => (number === null ? 'mål' : `post ${number} (${code})`),
  highlighted: (name) => `${name} (klubben)`,
  graphAlt: (title, runners) => `Strekktider for ${title}, ${runners} ${runners === 1 ? 'løper' : 'løpere'}`,
  graphRunnerAlt: (name, behind, worst) =>
    `${name} ${behind === null ? 'fullførte ikke' : `${behind} bak idealtiden i mål`}` +
    (worst === null ? '' : `, tapte mest på ${worst.control}, ${worst.lost}`),
  barsAlt: (title, name, mistakes, lost) =>
    `Tidstap per strekk for ${name}, ${title}: ${mistakes === 0 ? 'ingen bom' : `${mistakes} ${mistakes === 1 ? 'bom' : 'bommer'}, ${lost} tapt i alt`}`,
  mistakeAlt: (control, lost, rank) => `${lost} på ${control}${rank === null ? '' : `, strekkplassering ${rank}`}`,
  noEstimate: 'ikke noe anslag på tidstap (for få løpere eller ikke godkjent resultat)',
};

/** The languages the pictures speak; the bot's own. */
export type ChartLanguage = 'en' | 'sv' | 'nb';

const WORDS: Record<ChartLanguage, ChartWords> = { en: ENGLISH, sv: SWEDISH, nb: NORWEGIAN };

/** The words of the pictures in a language. */
export function chartWords(language: ChartLanguage): ChartWords {
  return WORDS[language];
}
