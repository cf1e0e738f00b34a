/**
 * The one core of "a class's lines" in the club's start list and the club's results: the class's
 * persons grouped per race (in race order, the race named in the heading when there are several),
 * the rows of each race chosen and ordered, and their lines made, by start- or result-specific
 * formatters (`ClassLineFormat`).
 */
import type { EventRef, PersonRef } from '../eventor/answers.js';
import type { Language } from '../i18n/index.js';
import { personNameText } from './format.js';
import type { Section } from './pages.js';
import { type RaceKeyed, raceKey, raceLabel, raceOrder } from './races.js';

export interface ClassLineFormat<Person, Race extends RaceKeyed, Row> {
  racesOf(person: Person): readonly Race[];
  row(person: Person, race: Race): Row;
  /** The rows of one race to show, in the order shown. */
  shown(rows: Row[]): Row[];
  /** The lines of the rows shown (namesakes are told apart among them). */
  lines(rows: readonly Row[]): string[];
  /** The section's heading; `raceLabel` only when the class has several races. */
  heading(raceLabel: string | null): string;
}

export interface RaceRows<Row> {
  order: number;
  label: string;
  rows: Row[];
}

/** The class's rows per race, in race order. */
export function rowsByRace<Person, Race extends RaceKeyed, Row>(
  persons: readonly Person[],
  format: Pick<ClassLineFormat<Person, Race, Row>, 'racesOf' | 'row'>,
  event: EventRef,
  language: Language,
): Array<RaceRows<Row>> {
  const races = new Map<string, RaceRows<Row>>();
  for (const person of persons) {
    for (const race of format.racesOf(person)) {
      const key = raceKey(race);
      let rows = races.get(key);
      if (!rows) {
        rows = { order: raceOrder(race, event), label: raceLabel(race, event, language), rows: [] };
        races.set(key, rows);
      }
      rows.rows.push(format.row(person, race));
    }
  }
  return [...races.values()].sort((a, b) => a.order - b.order);
}

/** A section per race of the class (one when it has one race), with the rows and lines the format chooses. */
export function classSections<Person, Race extends RaceKeyed, Row>(
  persons: readonly Person[],
  format: ClassLineFormat<Person, Race, Row>,
  event: EventRef,
  language: Language,
): Section[] {
  const races = rowsByRace(persons, format, event, language);
  const multi = races.length > 1;
  return races.map((race) => ({
    heading: format.heading(multi ? race.label : null),
    blocks: format.lines(format.shown(race.rows)),
  }));
}

/**
 * Who is "the member" in a member's own starts or results: lists from `/starts/person` and
 * `/results/person` hold only that person, so without an id everyone in a class matches; relay
 * teams list every runner, so there a member is found by id, else by name.
 */
export function memberMatchers(
  personName: string,
  personId: string | undefined,
): {
  person: (ref: PersonRef | null) => boolean;
  teamMember: (ref: PersonRef | null) => boolean;
} {
  return {
    person: (ref) => personId === undefined || ref?.id === personId,
    teamMember: (ref) => (personId !== undefined ? ref?.id === personId : personNameText(ref?.name) === personName),
  };
}
