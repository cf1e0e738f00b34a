/**
 * /forget-me: after a confirm button, deletes everything the bot holds about the member in every
 * server (links, link requests, audit entries naming them, /notify subscriptions and the ledger of
 * their DMs). Nothing is logged or audited about it, since that would name them again.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { z } from 'zod';
import { type BotCommand, customIdCodec, onComponent } from '../src/bot/command.js';
import { localizedCommand } from '../src/bot/define.js';

/** A confirm button found in an old message must not delete anything years later. */
const CONFIRM_TTL_MS = 10 * 60_000;

/** The delete button: when it was offered (milliseconds), so an old one expires. It names nobody: the clicker's data goes. */
const confirmForgetId = customIdCodec('forget-me:confirm', z.object({ issued: z.number().int().min(0) }));
const cancelForgetId = customIdCodec('forget-me:cancel', z.object({}));

export const forgetMe: BotCommand = {
  definition: localizedCommand('linking.forget.name', 'linking.forget.description').toJSON(),
  defer: 'ephemeral',
  // Never slowed down: deleting one's data must work however busy the member has been.
  callsEventor: false,
  async execute(ctx) {
    const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder()
        .setCustomId(confirmForgetId.encode({ issued: ctx.now().getTime() }))
        .setStyle(ButtonStyle.Danger)
        .setLabel(ctx.t('linking.forget.confirm')),
      new ButtonBuilder()
        .setCustomId(cancelForgetId.encode({}))
        .setStyle(ButtonStyle.Secondary)
        .setLabel(ctx.t('linking.forget.cancel')),
    );
    await ctx.answer({ content: ctx.t('linking.forget.ask'), components: [buttons] });
  },
  components: [
    onComponent(confirmForgetId, {
      defer: 'update',
      callsEventor: false,
      async handle(ctx, { issued }) {
        if (ctx.now().getTime() - issued > CONFIRM_TTL_MS) {
          await ctx.answer({ content: ctx.t('linking.forget.expired'), components: [] });
          return;
        }
        // The clicker, never an id from the button: only your own data can be deleted.
        await ctx.services.privacy.forgetUser(ctx.interaction.user.id);
        await ctx.answer({ content: ctx.t('linking.forget.done'), components: [] });
      },
    }),
    onComponent(cancelForgetId, {
      defer: 'update',
      callsEventor: false,
      async handle(ctx) {
        await ctx.answer({ content: ctx.t('linking.forget.cancelled'), components: [] });
      },
    }),
  ],
};
