/**
 * The words on and about the pictures. The caller passes them in its language (src/charts knows no
 * catalogue, docs/splits.md#pictures); {@link ENGLISH}, {@link SWEDISH} and {@link NORWEGIAN} are the sets.
 */
import type { ResultStatus } from '../eventor/model.js';

/**
 * The statuses whose line is marked where it ends, with the short words drawn there (the results'
 * own abbreviations, src/i18n/messages/render.ts) and the words of the alt text.
 */
export type EndedStatus = 'MissingPunch' | 'Disqualified' | 'DidNotFinish' | 'OverTime' | 'SportingWithdrawal';
export const ENDED_STATUSES: readonly EndedStatus[] = [
  'MissingPunch',
  'Disqualified',
  'DidNotFinish',
  'OverTime',
  'SportingWithdrawal',
];

/** Whether a runner's line is marked where it ends, and with which status. */
export function endedStatus(status: ResultStatus): EndedStatus | null {
  return (ENDED_STATUSES as readonly string[]).includes(status) ? (status as EndedStatus) : null;
}
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
  /** The mark drawn where the line of a runner who did not finish, mispunched… ends: `DNF`, `MP`, `DSQ`. */
  endedMark: Record<EndedStatus, string>;
  /** The same in the alt text: `Anna Berg (club) did not finish, the line ends at control 5 (43)`. */
  endedAlt: (name: string, status: EndedStatus, control: string | null) => string;
  /** The graph's key: the thick coloured lines, the thin grey ones. */
  keyHighlighted: string;
  keyReference: string;
  /** The bars' key: a leg with time lost that is not a mistake, and a mistake. */
  keyLost: string;
  keyMistake: string;
  /** Opening of the bar chart's alt text. */
  barsAlt: (title: string, name: string, mistakes: number, lost: string) => string;
  /** One mistake in the bar chart's alt text. */
  mistakeAlt: (control: string, lost: string, rank: number | null) => string;
}

const ENDED_EN: Record<EndedStatus, string> = {
  MissingPunch: 'mispunched',
  Disqualified: 'was disqualified',
  DidNotFinish: 'did not finish',
  OverTime: 'was over the time limit',
  SportingWithdrawal: 'withdrew',
};
const ENDED_SV: Record<EndedStatus, string> = {
  MissingPunch: 'felstämplade',
  Disqualified: 'diskvalificerades',
  DidNotFinish: 'bröt',
  OverTime: 'överskred maxtiden',
  SportingWithdrawal: 'avbröt',
};
const ENDED_NB: Record<EndedStatus, string> = {
  MissingPunch: 'feilstemplet',
  Disqualified: 'ble diskvalifisert',
  DidNotFinish: 'brøt',
  OverTime: 'gikk over makstiden',
  SportingWithdrawal: 'brøt',
};

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
  endedMark: {
    MissingPunch: 'MP',
    Disqualified: 'DSQ',
    DidNotFinish: 'DNF',
    OverTime: 'Over time',
    SportingWithdrawal: 'Withdrew',
  },
  endedAlt: (name, status, control) =>
    `${name} ${ENDED_EN[status]}` + (control === null ? '' : `, the line ends at ${control}`),
  keyHighlighted: "The club's runners",
  keyReference: 'The winner and others, for comparison',
  keyLost: 'Time lost, no mistake',
  keyMistake: 'Mistake',
  barsAlt: (title, name, mistakes, lost) =>
    `Time lost per leg by ${name}, ${title}: ${mistakes === 0 ? 'no mistakes' : `${mistakes} ${mistakes === 1 ? 'mistake' : 'mistakes'}, ${lost} lost in all`}`,
  mistakeAlt: (control, lost, rank) => `${lost} at ${control}${rank === null ? '' : `, leg rank ${rank}`}`,
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
  endedMark: {
    MissingPunch: 'Felst.',
    Disqualified: 'Disk.',
    DidNotFinish: 'Utg.',
    OverTime: 'Maxtid',
    SportingWithdrawal: 'Avbröt',
  },
  endedAlt: (name, status, control) =>
    `${name} ${ENDED_SV[status]}` + (control === null ? '' : `, linjen slutar vid ${control}`),
  keyHighlighted: 'Klubbens löpare',
  keyReference: 'Segraren och andra, som jämförelse',
  keyLost: 'Tidsförlust, ingen bom',
  keyMistake: 'Bom',
  barsAlt: (title, name, mistakes, lost) =>
    `Tidsförlust per sträcka för ${name}, ${title}: ${mistakes === 0 ? 'inga bommar' : `${mistakes} ${mistakes === 1 ? 'bom' : 'bommar'}, ${lost} förlorat totalt`}`,
  mistakeAlt: (control, lost, rank) => `${lost} vid ${control}${rank === null ? '' : `, sträckplacering ${rank}`}`,
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
  endedMark: {
    MissingPunch: 'Feilst.',
    Disqualified: 'Disk.',
    DidNotFinish: 'Brutt',
    OverTime: 'Over makstid',
    SportingWithdrawal: 'Brøt',
  },
  endedAlt: (name, status, control) =>
    `${name} ${ENDED_NB[status]}` + (control === null ? '' : `, linjen slutter ved ${control}`),
  keyHighlighted: 'Klubbens løpere',
  keyReference: 'Vinneren og andre, til sammenligning',
  keyLost: 'Tidstap, ingen bom',
  keyMistake: 'Bom',
  barsAlt: (title, name, mistakes, lost) =>
    `Tidstap per strekk for ${name}, ${title}: ${mistakes === 0 ? 'ingen bom' : `${mistakes} ${mistakes === 1 ? 'bom' : 'bommer'}, ${lost} tapt i alt`}`,
  mistakeAlt: (control, lost, rank) => `${lost} på ${control}${rank === null ? '' : `, strekkplassering ${rank}`}`,
};

/** The languages the pictures speak; the bot's own. */
export type ChartLanguage = 'en' | 'sv' | 'nb';

const WORDS: Record<ChartLanguage, ChartWords> = { en: ENGLISH, sv: SWEDISH, nb: NORWEGIAN };

/** The words of the pictures in a language. */
export function chartWords(language: ChartLanguage): ChartWords {
  return WORDS[language];
}
