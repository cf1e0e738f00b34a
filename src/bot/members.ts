/**
 * Members and persons in replies: names from the club's list, the member's own links in
 * autocomplete, a person found in start or result lists, and Discord timestamps.
 */
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { personNames as namesOf, personLabel, plainPersonLabel } from '../app/club.js';
import type { Person, PersonName } from '../eventor/answers.js';
import type { KeyWithVariables, PlainKey } from '../i18n/index.js';
import { discordTimestamp, personNameText, plainText } from '../render/index.js';
import type { AutocompleteContext, BaseContext } from './command.js';
import { guildOf } from './guards.js';
import { fold } from '../text/fold.js';

export { personLabel };

/**
 * Names of persons for a reply, from the club's member list (cached by the client), escaped for
 * a message unless another `label` is given. A person who left the club, or an Eventor that is
 * down, still gets a line: their id.
 */
export function personNames(
  ctx: BaseContext,
  personIds: readonly string[],
  label?: (person: Person) => string,
): Promise<Map<string, string>> {
  return namesOf(ctx.services.club, () => ctx.guild.eventor(), personIds, ctx.log, label);
}

/** Autocomplete over the persons the member has linked in this server. */
export async function ownLinkChoices(
  ctx: AutocompleteContext,
  query: string,
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  if (!ctx.guild.id) return [];
  const linked = await ctx.services.linking.linkedPersons(ctx.guild.id, ctx.interaction.user.id);
  const names = await personNames(
    ctx,
    linked.map((l) => l.personId),
    plainPersonLabel,
  );
  const words = fold(query).split(/\s+/).filter(Boolean);
  return linked
    .map((l) => ({
      name: plainText(names.get(l.personId)!, 100) || plainText(l.personId, 100) || '?',
      value: l.personId,
    }))
    .filter((c) => words.every((w) => fold(c.name).includes(w)))
    .slice(0, 25);
}

/** A Discord timestamp that every client shows in its own zone and language. */
export function when(iso: string, style: 'D' | 'f' = 'D'): string {
  return discordTimestamp(iso, style);
}

/** Date of a list's event for sorting; lists without one go last. */
export function eventStart(ref: { event: { start: string | null } | null }): number {
  const start = ref.event?.start;
  return start ? Date.parse(start) : Number.NaN;
}

type PersonLike = { person: { id: string | null; name: PersonName } | null };

/**
 * A person's name as a start or result list spells it, individual or relay member. One lookup per
 * answer: a single pass over the lists' entries, stopping at the first match.
 */
export function nameInLists(
  lists: ReadonlyArray<{
    classes: ReadonlyArray<{
      persons: readonly PersonLike[];
      teams: ReadonlyArray<{ members: readonly PersonLike[] }>;
    }>;
  }>,
  personId: string,
): string | null {
  const named = (entry: PersonLike): string | null =>
    entry.person?.id === personId ? personNameText(entry.person.name) : null;
  for (const list of lists) {
    for (const cls of list.classes) {
      for (const entry of cls.persons) {
        const name = named(entry);
        if (name !== null) return name;
      }
      for (const team of cls.teams) {
        for (const member of team.members) {
          const name = named(member);
          if (name !== null) return name;
        }
      }
    }
  }
  return null;
}

/**
 * Refuses to act AS a person in Eventor (a login link, a chip change) unless `userId` linked that
 * person with the person's Eventor password (`Linking.requireProvenLink` says why).
 */
export function requireProvenLink(
  ctx: BaseContext,
  userId: string,
  personId: string,
  refusals: { notLinked: PlainKey; notProven: KeyWithVariables<'person' | 'method'> },
): Promise<void> {
  return ctx.services.linking.requireProvenLink(
    () => ctx.guild.eventor(),
    { guildId: guildOf(ctx), userId, language: ctx.language },
    personId,
    refusals,
  );
}
