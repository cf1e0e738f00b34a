/**
 * `npm run docs:commands`: the tables of the commands' names in English, Swedish and Norwegian
 * (docs/members.md for members' commands, docs/admins.md for admins' with every subcommand and
 * option), the feed kinds as `/feeds` lists them, and the permissions the invite asks for, written
 * from the command definitions Discord gets (commands/index.ts, built through the i18n catalogues)
 * and the kinds' registry (src/feeds/registry.ts), so a new command, option or kind is in the docs
 * the moment it exists. test/repo/command-pages.test.ts fails when a page differs from what this writes.
 */
import type {
  APIApplicationCommandBasicOption,
  APIApplicationCommandOption,
  APIApplicationCommandSubcommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { ApplicationCommandOptionType } from 'discord.js';
import { commandsFor } from '../../commands/index.js';
import type { Permission } from '../../src/feeds/delivery/post-channels.js';
import { POST_PERMISSIONS } from '../../src/feeds/delivery/post-channels.js';
import type { FeedKind } from '../../src/feeds/kind.js';
import { botPermissions, KINDS } from '../../src/feeds/registry.js';
import { type Language, t } from '../../src/i18n/index.js';
import { markdownTable, type WrittenPart, writePages, writtenPages } from './written.js';

export const COMMANDS_WRITER = 'npm run docs:commands';

type Definition = RESTPostAPIChatInputApplicationCommandsJSONBody;
type Named = { name: string; name_localizations?: Partial<Record<string, string | null>> | null };

/** Discord's locale of each of our languages. */
const LOCALES: Readonly<Record<Language, string | null>> = { en: null, sv: 'sv-SE', nb: 'no' };
const LANGUAGES: readonly Language[] = ['en', 'sv', 'nb'];
const HEADER = ['English', 'Swedish', 'Norwegian'];

/** The name Discord shows a member of this language. */
function nameIn(item: Named, language: Language): string {
  const locale = LOCALES[language];
  return (locale && item.name_localizations?.[locale]) || item.name;
}

const code = (text: string): string => `\`${text}\``;

/** A command for admins: Discord offers it only to those who may manage the server (src/bot/define.ts). */
const forAdmins = (definition: Definition): boolean =>
  definition.default_member_permissions !== undefined && definition.default_member_permissions !== null;

const isSubcommand = (option: APIApplicationCommandOption): option is APIApplicationCommandSubcommandOption =>
  option.type === ApplicationCommandOptionType.Subcommand;

/** The members' commands, one row each: `/results` · `/resultat` · `/resultater`. */
export function memberCommandsTable(definitions: readonly Definition[]): string {
  const rows = definitions
    .filter((d) => !forAdmins(d))
    .map((d) => LANGUAGES.map((language) => code(`/${nameIn(d, language)}`)));
  return markdownTable(HEADER, rows);
}

/** An option as the docs write it: `<required>` or `[optional]`. */
function optionCell(option: APIApplicationCommandBasicOption, language: Language): string {
  const name = nameIn(option, language);
  return code(option.required ? `<${name}>` : `[${name}]`);
}

/**
 * The admins' commands: one table, a row per subcommand (`/setup channel` in each language) and
 * under it a row per option, in the order Discord lists them.
 */
export function adminCommandsTable(definitions: readonly Definition[]): string {
  const rows: string[][] = [];
  for (const definition of definitions.filter(forAdmins)) {
    const subcommands = (definition.options ?? []).filter(isSubcommand);
    for (const sub of subcommands) {
      rows.push(
        LANGUAGES.map((language) => `**${code(`/${nameIn(definition, language)} ${nameIn(sub, language)}`)}**`),
      );
      for (const option of sub.options ?? []) rows.push(LANGUAGES.map((language) => optionCell(option, language)));
    }
    if (subcommands.length === 0)
      rows.push(LANGUAGES.map((language) => `**${code(`/${nameIn(definition, language)}`)}**`));
  }
  return markdownTable(HEADER, rows);
}

/** The kinds as `/feeds on <kind>` lists them in each language, with the name the docs use. */
export function kindsTable(kinds: readonly FeedKind[]): string {
  return markdownTable(
    ['Kind', ...HEADER],
    kinds.map((kind) => [code(kind.name), ...LANGUAGES.map((language) => t(language, kind.label))]),
  );
}

/** Where the bot needs a permission: in each channel it posts in, or for one kind (in its channel or the server). */
function neededFor(permission: Permission, kinds: readonly FeedKind[]): string {
  if (POST_PERMISSIONS.some(([bit]) => bit === permission[0])) return 'every channel the bot posts in';
  const users = kinds.filter((kind) => kind.permissions.some(([bit]) => bit === permission[0]));
  return users
    .map((kind) =>
      kind.audience === 'server'
        ? `${code(kind.name)}, in the server (its role)`
        : `${code(kind.name)}, in its channel`,
    )
    .join('; ');
}

/** Every permission the invite asks for (`botPermissions`, what `eventor-bot invite` puts in the link), by name in each language. */
export function permissionsTable(kinds: readonly FeedKind[]): string {
  return markdownTable(
    [...HEADER, 'Needed for'],
    botPermissions(kinds).map((permission) => [
      ...LANGUAGES.map((language) => t(language, permission[1])),
      neededFor(permission, kinds),
    ]),
  );
}

/** The parts this writes, for the registry's kinds (or a test's). */
export function commandParts(kinds: readonly FeedKind[] = KINDS): WrittenPart[] {
  const definitions = commandsFor(kinds).map((command) => command.definition as Definition);
  return [
    { page: 'docs/members.md', name: 'command names', markdown: memberCommandsTable(definitions) },
    { page: 'docs/admins.md', name: 'permissions', markdown: permissionsTable(kinds) },
    { page: 'docs/admins.md', name: 'feed kinds', markdown: kindsTable(kinds) },
    { page: 'docs/admins.md', name: 'admin commands', markdown: adminCommandsTable(definitions) },
  ];
}

async function main(): Promise<void> {
  const pages = await writtenPages(commandParts(), COMMANDS_WRITER);
  for (const line of await writePages(pages)) process.stdout.write(`${line}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
