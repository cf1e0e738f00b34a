/**
 * /next [person]: the races the member's linked persons have entered (class, start time once out,
 * where, the entry deadlines still ahead), with the "Log in to Eventor" button. Private. Which
 * persons: only those the member linked in this server (`NextRacesService` checks, for the command
 * and for the refresh button, whose custom id is never trusted).
 */
import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import { z } from 'zod';
import {
  type BaseContext,
  type BotCommand,
  customIdCodec,
  idField,
  onComponent,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { ownLinkChoices } from '../src/bot/members.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import type { Answer } from '../src/bot/command.js';
import { renderNextRaces } from '../src/render/next.js';

/** The refresh button: for whom it was made, and the one person asked about (absent: all linked). */
export const nextRefreshId = customIdCodec(
  'next:refresh',
  z.object({ userId: idField(), personId: idField().optional() }),
);

async function showNext(ctx: BaseContext & { answer: Answer }, userId: string, personId: string | null) {
  const guildId = guildOf(ctx);
  const eventor = await ctx.guild.eventor();
  const persons = await ctx.services.next.forMember(eventor, { guildId, userId }, personId, {
    now: ctx.now(),
    timeZone: ctx.guild.timeZone,
  });
  const refreshId = nextRefreshId.encode({ userId, ...(personId === null ? {} : { personId }) });
  await showPage(ctx.answer, renderNextRaces(persons, renderContext(ctx, eventor), { refreshId }));
}

export const nextCommand: BotCommand = {
  definition: localizedCommand('next.name', 'next.description')
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((o) =>
      localize(o, 'linking.option.person.name', 'next.option.person.description')
        .setAutocomplete(true)
        .setMaxLength(100),
    )
    .toJSON(),
  defer: 'ephemeral',
  requires: { linked: 'any' },
  async execute(ctx) {
    const typed = ctx.interaction.options.getString('person')?.trim() || null;
    await showNext(ctx, ctx.interaction.user.id, typed);
  },
  async autocomplete(ctx) {
    return ownLinkChoices(ctx, String(ctx.interaction.options.getFocused()));
  },
  components: [
    onComponent(nextRefreshId, {
      defer: 'update',
      requires: { linked: 'any' },
      async handle(ctx, { userId, personId }) {
        // Nothing in the custom id is trusted: the clicker must be the member it was made for, and
        // the person theirs in this server (checked again by the service).
        if (ctx.interaction.user.id !== userId) throw new UserFacingError('next.error.notYours');
        await showNext(ctx, userId, personId ?? null);
      },
    }),
  ],
};
