/**
 * What /link, /unlink, /whoami, /admin and /forget-me share: the server a command is for, club
 * membership checks, and person names for replies. Who may act as an admin is declared on the
 * commands and buttons (`requires`) and checked by the router.
 */
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { UserFacingError, type AutocompleteContext, type BaseContext, type GuildEventor } from '../src/bot/command.js';
import { fold } from '../src/bot/lookup.js';
import type { Person } from '../src/eventor/model.js';
import type { KeyWithVariables, PlainKey } from '../src/i18n/index.js';
import { PROVEN_LINK } from '../src/store/store.js';
import { discordTimestamp, escapeName, personNameText, plainText } from '../src/render/index.js';
import { clubPersons, resolveMember } from './members-common.js';

export function guildOf(ctx: BaseContext): string {
  if (!ctx.guild.id) throw new UserFacingError('linking.guildOnly');
  return ctx.guild.id;
}

/** The person among the members of the server's club (the organisation of its API key), or null; `fresh` as in `clubPersons`. */
export async function clubMember(eventor: GuildEventor, personId: string, options: { fresh?: boolean } = {}): Promise<Person | null> {
  return (await clubPersons(eventor, options)).find((p) => p.id === personId) ?? null;
}

/**
 * Refuses to act AS a person in Eventor (a login link, a chip change) unless `userId` linked that
 * person by giving Eventor the person's user name and password. A link an admin made or approved
 * says who a member is in the club, enough for their own starts, results and DMs; but anyone with
 * Manage Server can make one to anyone, so it must not open that person's Eventor account.
 * `notLinked` is the refusal when the person is not linked to the user at all.
 */
export async function requireProvenLink(
  ctx: BaseContext,
  userId: string,
  personId: string,
  refusals: { notLinked: PlainKey; notProven: KeyWithVariables<'person' | 'method'> },
): Promise<void> {
  const link = ctx.store.linkedPersons(guildOf(ctx), userId).find((l) => l.personId === personId);
  if (!link) throw new UserFacingError(refusals.notLinked);
  if (link.method === PROVEN_LINK) return;
  const names = await personNames(ctx, [personId]);
  throw new UserFacingError(refusals.notProven, { person: names.get(personId)!, method: ctx.t(`linking.method.${link.method}`) });
}

/** The club member an option names (an id from autocomplete or a typed name); anyone else is refused. */
export async function requireClubMember(eventor: GuildEventor, value: string): Promise<Person & { id: string }> {
  const personId = await resolveMember(eventor, value);
  const person = await clubMember(eventor, personId);
  if (!person?.id) throw new UserFacingError('linking.error.notInClub');
  return person as Person & { id: string };
}

/** Whether a person Eventor authenticated belongs to the club: their organisation, a role there, or the member list. */
export async function belongsToClub(eventor: GuildEventor, person: Person): Promise<boolean> {
  if (person.organisationId === eventor.organisationId) return true;
  if (person.roles.some((role) => role.organisationId === eventor.organisationId)) return true;
  return person.id !== null && (await clubMember(eventor, person.id)) !== null;
}

/** A person's name and birth year for a message: escaped and cut (Eventor's text goes into Discord markdown). */
export function personLabel(person: Person): string {
  const name = escapeName(personNameText(person.name));
  return person.birthDate ? `${name} (${escapeName(person.birthDate.slice(0, 4))})` : name;
}

/** The same as plain text, for autocomplete choice names (which Discord shows without markdown). */
function plainPersonLabel(person: Person): string {
  const name = plainText(personNameText(person.name), 93);
  return person.birthDate ? `${name} (${plainText(person.birthDate.slice(0, 4))})` : name;
}

/**
 * Names of persons for a reply, from the club's member list (cached by the client), escaped for
 * a message (`personLabel`) unless another `label` is given. A person who left the club, or an
 * Eventor that is down, still gets a line: their id.
 */
export async function personNames(ctx: BaseContext, personIds: readonly string[], label: (person: Person) => string = personLabel): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (personIds.length > 0) {
    try {
      const eventor = await ctx.guild.eventor();
      for (const person of await clubPersons(eventor)) if (person.id && personIds.includes(person.id)) names.set(person.id, label(person));
    } catch (error) {
      ctx.log.warn('person names unavailable; showing ids', { error });
    }
  }
  for (const id of personIds) if (!names.has(id)) names.set(id, `#${id}`);
  return names;
}

/** Autocomplete over the persons the member has linked in this server. */
export async function ownLinkChoices(ctx: AutocompleteContext, query: string): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  if (!ctx.guild.id) return [];
  const linked = ctx.store.linkedPersons(ctx.guild.id, ctx.interaction.user.id);
  const names = await personNames(ctx, linked.map((l) => l.personId), plainPersonLabel);
  const words = fold(query).split(/\s+/).filter(Boolean);
  return linked
    .map((l) => ({ name: plainText(names.get(l.personId)!, 100) || l.personId, value: l.personId }))
    .filter((c) => words.every((w) => fold(c.name).includes(w)))
    .slice(0, 25);
}

/** A Discord timestamp that every client shows in its own zone and language. */
export function when(iso: string, style: 'D' | 'f' = 'D'): string {
  return discordTimestamp(iso, style);
}
