/**
 * What /starts, /results, /activities and /activity share: whose data is asked for, a typed date
 * checked, and sending one page of a paged answer. (The render context and day arithmetic are
 * events-common's.)
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { UserFacingError, type AutocompleteContext, type BaseContext, type DeferMode, type GuildEventor } from '../src/bot/command.js';
import { eventChoices, fold, memberChoices } from '../src/bot/lookup.js';
import type { Person, PersonName } from '../src/eventor/model.js';
import type { MessagePayload } from '../src/render/index.js';
import { personNameText } from '../src/render/index.js';
import { parseDay } from '../src/time/days.js';

const ID = /^\d{1,18}$/;

/** A `YYYY-MM-DD` the member typed, as `parseDay` reads it; anything else is refused with the expected form. */
export function requireDay(value: string): string {
  const text = value.trim();
  const day = parseDay(text);
  // Echo only harmless characters: this text ends up in a message that could otherwise mention.
  if (day === null) throw new UserFacingError('members.error.badDate', { value: text.replace(/[^0-9A-Za-z./-]/g, '').slice(0, 20) });
  return day;
}

/**
 * Personal answers (the member's own starts or results) are private unless they share them;
 * asking about another member or the club's list is answered in the channel, like any club news.
 */
export function personalVisibility(interaction: ChatInputCommandInteraction): DeferMode {
  const personal = interaction.options.getString('member') === null && interaction.options.getString('event') === null;
  return personal && interaction.options.getBoolean('share') !== true ? 'ephemeral' : 'public';
}

/** The member's default linked Eventor person. */
export function ownPersonId(ctx: BaseContext, userId: string): string {
  const linked = ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, userId) : [];
  const person = linked[0];
  if (!person) throw new UserFacingError('error.notLinked');
  return person.personId;
}

/**
 * The members of the server's club (the organisation of its API key). `fresh` asks Eventor even
 * when the client holds the list (kept a day): for acting as a person, who must be a member now.
 */
export async function clubPersons(eventor: GuildEventor, options: { fresh?: boolean } = {}): Promise<Person[]> {
  return eventor.client.call('persons', { organisationId: eventor.organisationId }, options);
}

/**
 * The member option: an id picked from autocomplete, or a name typed without picking, which
 * counts when exactly one club member matches it.
 */
export async function resolveMember(eventor: GuildEventor, value: string): Promise<string> {
  const text = value.trim();
  if (ID.test(text)) return text;
  const words = fold(text).split(/\s+/).filter(Boolean);
  const persons = await clubPersons(eventor);
  const found = persons.filter((p) => p.id !== null && words.length > 0 && words.every((w) => fold(personNameText(p.name)).includes(w)));
  if (found.length !== 1) throw new UserFacingError('members.error.unknownMember', { name: text.replace(/[@<>`*_~|\\]/g, '').slice(0, 60) });
  return found[0]!.id!;
}

/** The person's name from the club's member list (cached by the client), or null when not a member. */
export async function memberName(eventor: GuildEventor, personId: string): Promise<string | null> {
  const person = (await clubPersons(eventor)).find((p) => p.id === personId);
  return person ? personNameText(person.name) : null;
}

export function eventIdOf(value: string): string {
  const text = value.trim();
  if (!ID.test(text)) throw new UserFacingError('error.eventNotFound');
  return text;
}

/** Replaces the deferred reply (or the message whose button was clicked) with one page. */
/** Whom a /starts or /results asks about: the club in an event, or a person (you by default) in one event or lately. */
export type MemberTarget = { kind: 'person'; personId: string; eventId: string | null } | { kind: 'club'; eventId: string };

/**
 * The `member` and `event` options as a target, and the server's Eventor. Your own link is checked
 * first: without one there is nothing to ask Eventor.
 */
export async function memberTarget(ctx: BaseContext & { interaction: ChatInputCommandInteraction }): Promise<{ eventor: GuildEventor; target: MemberTarget }> {
  const member = ctx.interaction.options.getString('member');
  const event = ctx.interaction.options.getString('event');
  const own = member === null && event === null ? ownPersonId(ctx, ctx.interaction.user.id) : null;
  const eventor = await ctx.guild.eventor();
  if (member === null && event !== null) return { eventor, target: { kind: 'club', eventId: eventIdOf(event) } };
  return { eventor, target: { kind: 'person', personId: own ?? (await resolveMember(eventor, member!)), eventId: event === null ? null : eventIdOf(event) } };
}

export async function showPage(interaction: { editReply(options: object): Promise<unknown> }, payload: MessagePayload): Promise<void> {
  await interaction.editReply({ content: payload.content ?? '', embeds: payload.embeds ?? [], components: payload.components ?? [], allowedMentions: payload.allowedMentions });
}

/** A page number from a custom id, never below 1 (the renderers clamp the top). */
export function pageArg(value: string | undefined): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** Date of a list's event for sorting; lists without one go last. */
export function eventStart(ref: { event: { start: string | null } | null }): number {
  const start = ref.event?.start;
  return start ? Date.parse(start) : Number.NaN;
}

/** Autocomplete of the `member` and `event` options that /starts and /results share. */
export async function memberOrEventChoices(ctx: AutocompleteContext): Promise<Array<{ name: string; value: string }>> {
  const focused = ctx.interaction.options.getFocused(true);
  const eventor = await ctx.guild.eventor();
  if (focused.name === 'member') return memberChoices(eventor.client, eventor.organisationId, focused.value);
  if (focused.name === 'event') return eventChoices(eventor.client, focused.value, ctx.now(), ctx.guild.timeZone);
  return [];
}

type PersonLike = { person: { id: string | null; name: PersonName } | null };

/** A person's name as a start or result list spells it, individual or relay member. */
export function nameInLists(lists: ReadonlyArray<{ classes: ReadonlyArray<{ persons: readonly PersonLike[]; teams: ReadonlyArray<{ members: readonly PersonLike[] }> }> }>, personId: string): string | null {
  for (const list of lists) {
    for (const cls of list.classes) {
      const person = cls.persons.find((p) => p.person?.id === personId)?.person
        ?? cls.teams.flatMap((team) => team.members).find((m) => m.person?.id === personId)?.person;
      if (person) return personNameText(person.name);
    }
  }
  return null;
}
