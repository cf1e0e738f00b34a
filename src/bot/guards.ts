/**
 * Which server a command is for, and who may act as an admin there: the checks every handler and
 * button click makes (Discord hiding a command, or a button sitting in an admin channel, proves nothing).
 */
import { UserFacingError, type BaseContext, type CommandContext, type ComponentContext } from './command.js';

export function guildOf(ctx: BaseContext): string {
  if (!ctx.guild.id) throw new UserFacingError('linking.guildOnly');
  return ctx.guild.id;
}

/**
 * Refuses anyone without Manage Server. Checked in every handler and on every button click:
 * Discord hiding a command, or a button sitting in an admin channel, proves nothing.
 */
export function requireAdmin(ctx: CommandContext | ComponentContext): string {
  const guildId = guildOf(ctx);
  if (ctx.interaction.memberPermissions?.has('ManageGuild') !== true) throw new UserFacingError('linking.notAdmin');
  return guildId;
}

function isManager(ctx: CommandContext | ComponentContext): boolean {
  return ctx.interaction.memberPermissions?.has('ManageGuild') === true;
}

/** Refuses anyone who may not change settings; Discord hiding the command is not enough. */
export function requireManager(ctx: CommandContext | ComponentContext): string {
  if (!ctx.interaction.inGuild()) throw new UserFacingError('setup.guildOnly');
  if (!isManager(ctx)) throw new UserFacingError('setup.notAdmin');
  return ctx.interaction.guildId;
}
