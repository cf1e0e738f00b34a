/** Building command definitions whose names, descriptions and options are localised. */
import {
  type APIApplicationCommandOptionChoice,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
} from 'discord.js';
import { discordLocalizations, type PlainKey, t } from '../i18n/index.js';

export function localizedCommand(nameKey: PlainKey, descriptionKey: PlainKey): SlashCommandBuilder {
  return new SlashCommandBuilder()
    .setName(t('en', nameKey))
    .setNameLocalizations(discordLocalizations(nameKey))
    .setDescription(t('en', descriptionKey))
    .setDescriptionLocalizations(discordLocalizations(descriptionKey));
}

/**
 * A command for a server's admins (/setup, /feeds): Discord offers it to those who may manage the
 * server, in servers only, for the bot installed in a server. The router still checks what it declares.
 */
export function serverAdminCommand(nameKey: PlainKey, descriptionKey: PlainKey): SlashCommandBuilder {
  return localizedCommand(nameKey, descriptionKey)
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);
}

/** For option builders: `.setName(...)` etc. through `localize(option, nameKey, descriptionKey)`. */
export function localize<
  T extends {
    setName(n: string): T;
    setNameLocalizations(l: Record<string, string>): T;
    setDescription(d: string): T;
    setDescriptionLocalizations(l: Record<string, string>): T;
  },
>(builder: T, nameKey: PlainKey, descriptionKey: PlainKey): T {
  return builder
    .setName(t('en', nameKey))
    .setNameLocalizations(discordLocalizations(nameKey))
    .setDescription(t('en', descriptionKey))
    .setDescriptionLocalizations(discordLocalizations(descriptionKey));
}

/** A fixed choice of a string option, its label localised. */
export function localizedChoice(key: PlainKey, value: string): APIApplicationCommandOptionChoice<string> {
  return { name: t('en', key), name_localizations: discordLocalizations(key), value };
}
