/** Registering the slash commands with Discord, globally or in one server. */
import { REST, Routes } from 'discord.js';
import type { BotCommand } from './command.js';

export async function deployCommands(options: {
  token: string;
  apiUrl: string;
  commands: readonly BotCommand[];
  guildId?: string | undefined;
}): Promise<{ count: number; scope: string; applicationId: string }> {
  const rest = new REST({ api: options.apiUrl }).setToken(options.token);
  const application = (await rest.get(Routes.currentApplication())) as { id: string };
  const body = options.commands.map((c) => c.definition);
  const route = options.guildId
    ? Routes.applicationGuildCommands(application.id, options.guildId)
    : Routes.applicationCommands(application.id);
  const saved = (await rest.put(route, { body })) as unknown[];
  return {
    count: saved.length,
    scope: options.guildId ? `server ${options.guildId}` : 'all servers',
    applicationId: application.id,
  };
}

/**
 * The application `token` is a bot of, as Discord says (GET /oauth2/applications/@me): what
 * `invite` checks an application id against, so that it never prints a link that adds another bot.
 */
export async function tokenApplication(options: {
  token: string;
  apiUrl: string;
}): Promise<{ id: string; name: string }> {
  const rest = new REST({ api: options.apiUrl, retries: 1, timeout: 10_000 }).setToken(options.token);
  const application = (await rest.get(Routes.oauth2CurrentApplication())) as { id: string; name: string };
  return { id: application.id, name: application.name };
}
