/**
 * The words on and about the season's pictures (docs/members.md#season-your-year-and-the-clubs-table),
 * in the bot's three languages; like the split pictures' (words.ts), the caller names the language.
 */
import type { ChartLanguage } from './words.js';

export interface SeasonChartWords {
  /** Short month names, January first: the x axis. */
  months: readonly string[];
  /** Y axis of a member's year. */
  shareAxis: string;
  /** The club's picture: its two bars. */
  starts: string;
  podiums: string;
  /** Opening of a member's picture's alt text. */
  yearAlt: (title: string, races: number) => string;
  /** One race in it: `12 May, Vårsprinten: 87 %`. */
  raceAlt: (date: string, label: string, share: number) => string;
  /** Opening of the club's picture's alt text. */
  clubAlt: (title: string, starts: number, podiums: number) => string;
  /** One month in it. */
  monthAlt: (month: string, starts: number, podiums: number) => string;
  /** The end of a list cut short. */
  more: (count: number) => string;
}

const ENGLISH: SeasonChartWords = {
  months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  shareAxis: 'Share of the class beaten (%)',
  starts: 'Starts',
  podiums: 'Podiums',
  yearAlt: (title, races) =>
    `${title}: the share of the class beaten in each of ${races} ${races === 1 ? 'race' : 'races'}, over the year`,
  raceAlt: (date, label, share) => `${date}, ${label}: ${share} %`,
  clubAlt: (title, starts, podiums) => `${title}: ${starts} starts and ${podiums} podiums, by month`,
  monthAlt: (month, starts, podiums) => `${month} ${starts} starts, ${podiums} podiums`,
  more: (count) => `and ${count} more`,
};

const SWEDISH: SeasonChartWords = {
  months: ['jan', 'feb', 'mar', 'apr', 'maj', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
  shareAxis: 'Andel av klassen slagen (%)',
  starts: 'Starter',
  podiums: 'Pallplatser',
  yearAlt: (title, races) => `${title}: andelen av klassen slagen i vart och ett av ${races} lopp, över året`,
  raceAlt: (date, label, share) => `${date}, ${label}: ${share} %`,
  clubAlt: (title, starts, podiums) => `${title}: ${starts} starter och ${podiums} pallplatser, per månad`,
  monthAlt: (month, starts, podiums) => `${month} ${starts} starter, ${podiums} pallplatser`,
  more: (count) => `och ${count} till`,
};

const NORWEGIAN: SeasonChartWords = {
  months: ['jan', 'feb', 'mar', 'apr', 'mai', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'des'],
  shareAxis: 'Andel av klassen slått (%)',
  starts: 'Starter',
  podiums: 'Pallplasser',
  yearAlt: (title, races) => `${title}: andelen av klassen slått i hvert av ${races} løp, gjennom året`,
  raceAlt: (date, label, share) => `${date}, ${label}: ${share} %`,
  clubAlt: (title, starts, podiums) => `${title}: ${starts} starter og ${podiums} pallplasser, per måned`,
  monthAlt: (month, starts, podiums) => `${month} ${starts} starter, ${podiums} pallplasser`,
  more: (count) => `og ${count} til`,
};

const WORDS: Record<ChartLanguage, SeasonChartWords> = { en: ENGLISH, sv: SWEDISH, nb: NORWEGIAN };

export function seasonChartWords(language: ChartLanguage): SeasonChartWords {
  return WORDS[language];
}
