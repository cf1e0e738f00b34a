/** The Discord side of `/setup linking` (a subcommand of commands/setup.ts): which ways of linking members the server allows (both until an admin chooses). */
import type { SlashCommandSubcommandBuilder } from 'discord.js';
import type { CommandContext } from './command.js';
import { localize } from './define.js';

export function linkingSubcommand(sub: SlashCommandSubcommandBuilder): SlashCommandSubcommandBuilder {
  return localize(sub, 'linking.setup.name', 'linking.setup.description')
    .addBooleanOption((o) => localize(o, 'linking.setup.credentials.name', 'linking.setup.credentials.description'))
    .addBooleanOption((o) => localize(o, 'linking.setup.approval.name', 'linking.setup.approval.description'));
}

export async function setLinking(ctx: CommandContext, guildId: string): Promise<void> {
  const credentials = ctx.interaction.options.getBoolean('credentials');
  const approval = ctx.interaction.options.getBoolean('approval');
  const { methods, needsAdminChannel } = await ctx.services.setup.setLinkingMethods(guildId, {
    ...(credentials !== null ? { credentials } : {}),
    ...(approval !== null ? { approval } : {}),
  });
  const state = (on: boolean) => ctx.t(on ? 'linking.setup.on' : 'linking.setup.off');
  const lines = [
    ctx.t('linking.setup.state', { credentials: state(methods.credentials), approval: state(methods.approval) }),
  ];
  if (needsAdminChannel) lines.push(ctx.t('linking.setup.needsAdminChannel'));
  if (!methods.credentials && !methods.approval) lines.push(ctx.t('linking.setup.adminOnly'));
  await ctx.answer({ content: lines.join('\n') });
}
