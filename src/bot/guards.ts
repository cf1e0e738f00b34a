/**
 * Which server a command is for. Who may act as an admin there is declared on the commands and
 * components (`requires`) and checked once, by the router.
 */
import { type BaseContext, type CommandContext, type ComponentContext, UserFacingError } from './command.js';

export function guildOf(ctx: BaseContext): string {
  if (!ctx.guild.id) throw new UserFacingError('linking.guildOnly');
  return ctx.guild.id;
}

/**
 * The server whose settings change. Who may change them is declared on /setup, /feeds and the key
 * form (`requires: { permission: 'manageGuild' }`) and checked by the router before this runs.
 */
export function settingsServer(ctx: CommandContext | ComponentContext): string {
  if (!ctx.interaction.inGuild()) throw new UserFacingError('setup.guildOnly');
  return ctx.interaction.guildId;
}
