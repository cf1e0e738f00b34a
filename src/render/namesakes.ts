/**
 * Namesakes in one list: two "Elin Hedlund" in a class are two runners, not a duplicate, so each
 * gets what tells them apart, their birth year, else their club. Every list of
 * people (entries, start lists, results) shows its names through here.
 */
import type { OrganisationRef, PersonRef } from '../eventor/answers.js';
import { organisationName, personNameText } from './format.js';
import type { RenderContext } from './types.js';

export interface Listed {
  name: string;
  birthYear: string | null;
  club: string | null;
}

export function listedPerson(
  person: PersonRef | null | undefined,
  organisation: OrganisationRef | null | undefined,
  ctx: RenderContext,
): Listed {
  const birthDate = person?.birthDate ?? null;
  return {
    name: personNameText(person?.name) || '?',
    birthYear: birthDate ? birthDate.slice(0, 4) : null,
    club: organisationName(organisation, ctx),
  };
}

/** What tells one namesake apart; either part may be null, never both. */
export interface NamesakeDetail {
  birthYear: string | null;
  club: string | null;
}

/** The detail as shown after a name: `1987`, `IFK Göteborg`, `1987, IFK Göteborg`. */
export function detailText(detail: NamesakeDetail): string {
  return [detail.birthYear, detail.club].filter((part): part is string => part !== null).join(', ');
}

/**
 * Per person, what to add to the name: null for a name nobody else in the list has; the birth
 * year when the years tell the namesakes apart, else the club when the clubs do, else both (as
 * far as they are known).
 */
export function namesakeDetails(people: readonly Listed[]): Array<NamesakeDetail | null> {
  const byName = new Map<string, Listed[]>();
  for (const person of people) {
    const namesakes = byName.get(person.name);
    if (namesakes) namesakes.push(person);
    else byName.set(person.name, [person]);
  }
  // Per name, once: whether the years (the clubs) tell its namesakes apart. Counted per person, a
  // list where thousands share a name (or have none) would cost the square of them.
  const apart = new Map<string, { years: boolean; clubs: boolean }>();
  for (const [name, namesakes] of byName)
    if (namesakes.length > 1)
      apart.set(name, {
        years: new Set(namesakes.map((p) => p.birthYear)).size === namesakes.length,
        clubs: new Set(namesakes.map((p) => p.club)).size === namesakes.length,
      });
  return people.map((person) => {
    const by = apart.get(person.name);
    if (by === undefined) return null;
    if (person.birthYear && by.years) return { birthYear: person.birthYear, club: null };
    if (person.club && by.clubs) return { birthYear: null, club: person.club };
    return person.birthYear || person.club ? { birthYear: person.birthYear, club: person.club } : null;
  });
}

/** Names as shown in one list, namesakes told apart: `Elin Hedlund (1987)`, `Elin Hedlund (2009)`. */
export function distinctNames(people: readonly Listed[]): string[] {
  const details = namesakeDetails(people);
  return people.map((person, i) => {
    const detail = details[i];
    return detail ? `${person.name} (${detailText(detail)})` : person.name;
  });
}
