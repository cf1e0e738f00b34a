/** /unlink [person]: removes one of the member's links (the only one when they have one). */
import { type BotCommand, UserFacingError } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { ownLinkChoices, personNames } from '../src/bot/members.js';

export const unlink: BotCommand = {
  definition: localizedCommand('linking.unlink.name', 'linking.unlink.description')
    .addStringOption((o) =>
      localize(o, 'linking.option.person.name', 'linking.unlink.person.description')
        .setAutocomplete(true)
        .setMaxLength(100),
    )
    .toJSON(),
  defer: 'ephemeral',
  async execute(ctx) {
    const guildId = guildOf(ctx);
    const userId = ctx.interaction.user.id;
    const linked = await ctx.services.linking.linkedPersons(guildId, userId);
    if (linked.length === 0) throw new UserFacingError('error.notLinked');
    const chosen =
      ctx.interaction.options.getString('person')?.trim() ?? (linked.length === 1 ? linked[0]!.personId : null);
    if (chosen === null) throw new UserFacingError('linking.unlink.choose');
    if (!linked.some((l) => l.personId === chosen)) throw new UserFacingError('linking.default.notLinked');
    const names = await personNames(ctx, [chosen]);
    await ctx.services.linking.unlink(guildId, userId, chosen);
    await ctx.answer({ content: ctx.t('linking.unlink.done', { person: names.get(chosen)! }) });
  },
  async autocomplete(ctx) {
    return ownLinkChoices(ctx, String(ctx.interaction.options.getFocused()));
  },
};
