/**
 * The club's members: who is in the club, by name or id, as Eventor has them (its area is
 * src/club/area.ts).
 */
import type { Person } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import { escapeName, personNameText, plainText } from '../render/index.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { GuildEventor } from '../club/eventor-access.js';
import { fold } from '../text/fold.js';

/**
 * The members of the server's club (the organisation of its API key). `fresh` asks Eventor even
 * when the client holds the list (kept a day); the transport still shares one request among
 * concurrent identical fresh reads (http.ts), so a burst of checks is one fetch.
 */
export async function clubPersons(
  eventor: GuildEventor,
  options: { fresh?: boolean } = {},
): Promise<readonly Person[]> {
  return eventor.client.call('persons', { organisationId: eventor.organisationId }, options);
}

/**
 * The club's members: from the client's day-long cache for names and lookups, and as Eventor has
 * them at this moment (`fresh`) before the bot hands out access to a person's Eventor account (a
 * login link, a chip change). A list kept even a minute would let someone removed from the club
 * in Eventor still log in as the person within it. The client keeps answers per key, so a key
 * never sees a list fetched with another key.
 */
export class ClubMembers {
  /** The member list (the client's cache, kept a day). */
  list(eventor: GuildEventor): Promise<readonly Person[]> {
    return clubPersons(eventor);
  }

  /**
   * The person among the club's members, or null. `fresh` fetches the list from Eventor now
   * (concurrent identical fetches share one request): for every decision that gives access to
   * the person's Eventor account.
   */
  async member(eventor: GuildEventor, personId: string, options: { fresh?: boolean } = {}): Promise<Person | null> {
    const persons = await clubPersons(eventor, { fresh: options.fresh === true });
    return persons.find((p) => p.id === personId) ?? null;
  }

  /** The person's name from the member list, or null when not a member. */
  async memberName(eventor: GuildEventor, personId: string): Promise<string | null> {
    const person = await this.member(eventor, personId);
    return person ? personNameText(person.name) : null;
  }

  /** Whether a person Eventor authenticated belongs to the club: their organisation, a role there, or the member list. */
  async belongsToClub(eventor: GuildEventor, person: Person): Promise<boolean> {
    if (person.organisationId === eventor.organisationId) return true;
    if (person.roles.some((role) => role.organisationId === eventor.organisationId)) return true;
    return person.id !== null && (await this.member(eventor, person.id)) !== null;
  }

  /**
   * The member option: an id picked from autocomplete, or a name typed without picking, which
   * counts when exactly one club member matches it.
   */
  async resolve(eventor: GuildEventor, value: string): Promise<string> {
    const text = value.trim();
    if (PERSON_ID.test(text)) return text;
    const words = fold(text).split(/\s+/).filter(Boolean);
    const persons = await this.list(eventor);
    const found = persons.filter(
      (p) => p.id !== null && words.length > 0 && words.every((w) => fold(personNameText(p.name)).includes(w)),
    );
    if (found.length !== 1)
      throw new UserFacingError('members.error.unknownMember', {
        name: text.replace(/[@<>`*_~|\\]/g, '').slice(0, 60),
      });
    return found[0]!.id!;
  }

  /** The club member an option names (an id from autocomplete or a typed name); anyone else is refused. */
  async requireMember(eventor: GuildEventor, value: string): Promise<Person & { id: string }> {
    const personId = await this.resolve(eventor, value);
    const person = await this.member(eventor, personId);
    if (!person?.id) throw new UserFacingError('linking.error.notInClub');
    return person as Person & { id: string };
  }
}

const PERSON_ID = /^\d{1,18}$/;

/** A person's name and birth year for a message: escaped and cut (Eventor's text goes into Discord markdown). */
export function personLabel(person: Person): string {
  const name = escapeName(personNameText(person.name));
  return person.birthDate ? `${name} (${escapeName(person.birthDate.slice(0, 4))})` : name;
}

/** The same as plain text, for autocomplete choice names (which Discord shows without markdown). */
export function plainPersonLabel(person: Person): string {
  const name = plainText(personNameText(person.name), 93);
  return person.birthDate ? `${name} (${plainText(person.birthDate.slice(0, 4))})` : name;
}

/**
 * Names of persons for a reply, from the club's member list (cached by the client), escaped for
 * a message (`personLabel`) unless another `label` is given. A person who left the club, or an
 * Eventor that is down, still gets a line: their id.
 */
export async function personNames(
  members: ClubMembers,
  eventor: () => Promise<GuildEventor>,
  personIds: readonly string[],
  log: Logger,
  label: (person: Person) => string = personLabel,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (personIds.length > 0) {
    try {
      for (const person of await members.list(await eventor()))
        if (person.id && personIds.includes(person.id)) names.set(person.id, label(person));
    } catch (error) {
      log.warn('person names unavailable; showing ids', { error });
    }
  }
  for (const id of personIds) if (!names.has(id)) names.set(id, `#${id}`);
  return names;
}
