/**
 * The URL that adds the bot to a server (Discord's bot authorization flow): the `bot` and
 * `applications.commands` scopes and exactly the permissions the bot's features check for.
 */
import { botPermissions } from '../feeds/registry.js';

/** The permissions the invite asks for, as the one integer Discord's URL takes. */
export const BOT_PERMISSIONS: bigint = botPermissions().reduce((all, [bit]) => all | bit, 0n);

/** A Discord application id (a snowflake): 17 to 20 digits. */
export function isApplicationId(text: string): boolean {
  return /^\d{17,20}$/.test(text);
}

export function inviteUrl(applicationId: string): string {
  const query = `client_id=${encodeURIComponent(applicationId)}&scope=bot%20applications.commands&permissions=${BOT_PERMISSIONS}`;
  return `https://discord.com/oauth2/authorize?${query}`;
}
