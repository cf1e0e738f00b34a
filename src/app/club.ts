/**
 * The club: its area (the club and, when it has one, its district — the events "around the club"
 * that /events lists and the deadline reminders watch; one rule for both) and its members.
 */
import type { EventorClient } from '../eventor/client.js';
import { EventorError } from '../eventor/errors.js';
import type { Organisation, Person } from '../eventor/answers.js';
import type { Logger } from '../log/logger.js';
import { escapeName, personNameText, plainText } from '../render/index.js';
import { UserFacingError } from './errors.js';
import type { GuildEventor } from './eventor-access.js';
import { fold } from './fold.js';

export interface ClubArea {
  /** The district's id (when there is one) and the club's. */
  ids: string[];
  /** True when the club has a parent but Eventor could not give it, so the area is the club alone. */
  districtUnavailable: boolean;
}

/**
 * A parent that is a federation would mean the whole country, so only a district widens the area.
 * When Eventor cannot give the district (not in `organisations`, and asking for it by id fails),
 * the club alone is still worth a list: callers say the district is missing rather than failing as
 * a whole. A refused key is the exception: it concerns every question, so it is passed on.
 */
export async function clubArea(
  client: EventorClient,
  organisationId: string,
  options: { organisations?: ReadonlyMap<string, Organisation>; log?: Logger } = {},
): Promise<ClubArea> {
  const clubOnly = (districtUnavailable: boolean): ClubArea => ({ ids: [organisationId], districtUnavailable });
  const club = options.organisations?.get(organisationId) ?? (await client.organisation({ id: organisationId }));
  const parentId = club.parentId ?? null;
  if (parentId === null) return clubOnly(false);
  let parent = options.organisations?.get(parentId);
  if (parent === undefined) {
    try {
      parent = await client.organisation({ id: parentId });
    } catch (error) {
      if (!(error instanceof EventorError) || error.code === 'InvalidApiKey') throw error;
      options.log?.warn("the club's district could not be looked up; using the club alone", {
        district: parentId,
        error,
      });
      return clubOnly(true);
    }
  }
  return parent.kind === 'district'
    ? { ids: [parent.id, organisationId], districtUnavailable: false }
    : clubOnly(false);
}

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
