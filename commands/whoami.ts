/**
 * /whoami: the Eventor persons the member has linked in this server, the default first, each with
 * how it was linked (which decides whether /login and /card changes work), and requests still waiting.
 */
import type { BotCommand } from '../src/bot/command.js';
import { localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { personNames, when } from '../src/bot/members.js';
import { isProvenLink } from '../src/app/linking.js';

export const whoami: BotCommand = {
  definition: localizedCommand('linking.whoami.name', 'linking.whoami.description').toJSON(),
  defer: 'ephemeral',
  async execute(ctx) {
    const guildId = guildOf(ctx);
    const userId = ctx.interaction.user.id;
    const linked = await ctx.services.linking.linkedPersons(guildId, userId);
    const pending = await ctx.services.linking.pendingRequests(guildId, userId);
    if (linked.length === 0 && pending.length === 0) {
      await ctx.answer({ content: ctx.t('linking.whoami.none') });
      return;
    }
    const names = await personNames(ctx, [...linked.map((l) => l.personId), ...pending.map((p) => p.personId)]);
    const lines = [ctx.t('linking.whoami.title')];
    for (const l of linked) {
      const method = ctx.t(`linking.method.${l.method}`);
      const line = ctx.t('linking.whoami.line', {
        person: names.get(l.personId)!,
        id: l.personId,
        method,
        date: when(l.linkedAt),
      });
      lines.push(l.isDefault ? `${line} ${ctx.t('linking.whoami.default')}` : line);
    }
    for (const p of pending)
      lines.push(ctx.t('linking.whoami.pending', { person: names.get(p.personId)!, date: when(p.createdAt) }));
    if (linked.length > 1) lines.push('', ctx.t('linking.whoami.hint'));
    if (linked.some((l) => !isProvenLink(l))) lines.push('', ctx.t('linking.whoami.notProven'));
    await ctx.answer({ content: lines.join('\n') });
  },
};
