/**
 * Reading the options several commands share: whose data is asked for (`member`, `event`), a typed
 * event, and who sees the answer.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { GuildEventor } from '../club/eventor-access.js';
import {
  type AutocompleteContext,
  type BaseContext,
  type DeferMode,
  type HandlerInteraction,
  UserFacingError,
} from './command.js';
import { escapeName } from '../render/index.js';
import { eventChoices, memberChoices } from './lookup.js';

const ID = /^\d{1,18}$/;

/**
 * Personal answers (the member's own starts or results) are private unless they share them;
 * asking about another member or the club's list is answered in the channel, like any club news.
 */
export function personalVisibility(interaction: ChatInputCommandInteraction): DeferMode {
  const personal = interaction.options.getString('member') === null && interaction.options.getString('event') === null;
  return personal && interaction.options.getBoolean('share') !== true ? 'ephemeral' : 'public';
}

/** The member's default linked Eventor person. */
export async function ownPersonId(ctx: BaseContext, userId: string): Promise<string> {
  const linked = ctx.guild.id ? await ctx.services.linking.linkedPersons(ctx.guild.id, userId) : [];
  const person = linked[0];
  if (!person) throw new UserFacingError('error.notLinked');
  return person.personId;
}

/**
 * The club member a `member` option names, by their Eventor person (an id picked from autocomplete,
 * or a name typed), never through anyone's link, so an answer about them does not tell who is
 * linked to whom. Autocomplete offers the club's members only: any other id (made up, a Discord
 * account's, another club's runner) gets the refusal a name nobody has gets.
 */
export async function namedClubMember(ctx: BaseContext, eventor: GuildEventor, value: string): Promise<string> {
  const personId = await ctx.services.club.resolve(eventor, value);
  if ((await ctx.services.club.member(eventor, personId)) === null)
    throw new UserFacingError('members.error.unknownMember', { name: escapeName(value.trim(), { max: 60 }) });
  return personId;
}

export function eventIdOf(value: string): string {
  const text = value.trim();
  if (!ID.test(text)) throw new UserFacingError('error.eventNotFound');
  return text;
}

/** Whom a /starts or /results asks about: the club in an event, or a person (you by default) in one event or lately. */
export type MemberTarget =
  { kind: 'person'; personId: string; eventId: string | null } | { kind: 'club'; eventId: string };

/**
 * The `member` and `event` options as a target, and the server's Eventor. Your own link is checked
 * first: without one there is nothing to ask Eventor.
 */
export async function memberTarget(
  ctx: BaseContext & { interaction: HandlerInteraction<ChatInputCommandInteraction> },
): Promise<{ eventor: GuildEventor; target: MemberTarget }> {
  const member = ctx.interaction.options.getString('member');
  const event = ctx.interaction.options.getString('event');
  const own = member === null && event === null ? await ownPersonId(ctx, ctx.interaction.user.id) : null;
  const eventor = await ctx.guild.eventor();
  if (member === null && event !== null) return { eventor, target: { kind: 'club', eventId: eventIdOf(event) } };
  return {
    eventor,
    target: {
      kind: 'person',
      personId: own ?? (await ctx.services.club.resolve(eventor, member!)),
      eventId: event === null ? null : eventIdOf(event),
    },
  };
}

/**
 * The event id behind what the member gave: the value of an autocomplete choice, or an id or
 * name typed by hand. Anything that does not single out one event is `error.eventNotFound`.
 */
export async function resolveEventId(ctx: BaseContext, eventor: GuildEventor, value: string): Promise<string> {
  const text = value.trim();
  if (/^\d{1,18}$/.test(text)) return text;
  if (text !== '') {
    const choices = await eventChoices(eventor.client, text, ctx.now(), ctx.guild.timeZone);
    if (choices.length === 1) return String(choices[0]!.value);
  }
  throw new UserFacingError('error.eventNotFound');
}

/** Autocomplete of the `member` and `event` options that /starts and /results share. */
export async function memberOrEventChoices(ctx: AutocompleteContext): Promise<Array<{ name: string; value: string }>> {
  const focused = ctx.interaction.options.getFocused(true);
  const eventor = await ctx.guild.eventor();
  if (focused.name === 'member') return memberChoices(eventor.client, eventor.organisationId, focused.value);
  if (focused.name === 'event') return eventChoices(eventor.client, focused.value, ctx.now(), ctx.guild.timeZone);
  return [];
}
