/**
 * What a slash command is to the bot: its definition (with localised names and descriptions)
 * and its handlers. One file per command lives in `commands/`; the router does the rest
 * (deferring, language, errors, logging).
 */
import type {
  ApplicationCommandOptionChoiceData,
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  MessageComponentInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Language, MessageKey } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { GuildEventor } from '../app/eventor-access.js';
import type { Services } from '../app/services.js';

// Commands import these from here with the rest of their context; they live in src/app, below the
// bot, because the feeds use them too.
export { UserFacingError } from '../app/errors.js';
export type { GuildEventor } from '../app/eventor-access.js';

export interface GuildContext {
  id: string | null;
  /** Language of automatic posts and server-wide texts, chosen in /setup. */
  language: Language;
  timeZone: string;
  /** The server's Eventor; throws UserFacingError('error.notConfigured') when there is none. */
  eventor(): Promise<GuildEventor>;
}

export interface BaseContext {
  /** The member's language (from their Discord locale). */
  language: Language;
  t(key: MessageKey, vars?: Record<string, string | number>): string;
  guild: GuildContext;
  store: Store;
  log: Logger;
  now(): Date;
  /** Origins besides the presets that /setup may connect to (the operator's EVENTOR_CUSTOM_URLS). */
  customEventorOrigins: readonly string[];
  /** The services of this running bot (its composition root, `createServices`). */
  services: Services;
  /** The slash commands the router serves (for /help, which must not import the list it is in). */
  commands: readonly BotCommand[];
}

export interface CommandContext extends BaseContext {
  interaction: ChatInputCommandInteraction;
}

export interface AutocompleteContext extends BaseContext {
  interaction: AutocompleteInteraction;
}

export interface ComponentContext extends BaseContext {
  interaction: MessageComponentInteraction | ModalSubmitInteraction;
  /** The custom id's parts after `<command>:<action>:`. */
  args: string[];
}

export type DeferMode = 'public' | 'ephemeral' | 'none';

export interface BotCommand {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /**
   * How the router acknowledges the command before the handler runs. Anything that may wait for
   * Eventor defers, because Discord allows only 3 s for the first answer.
   */
  defer: DeferMode | ((interaction: ChatInputCommandInteraction) => DeferMode);
  /**
   * Whether running it may ask Eventor (default true). Such commands count towards the member's
   * cooldown, which the router checks before anything else. Only what never reaches Eventor says
   * false, so a command that does not say errs on the side of the limit.
   */
  callsEventor?: boolean | ((interaction: ChatInputCommandInteraction) => boolean);
  execute(ctx: CommandContext): Promise<void>;
  autocomplete?(ctx: AutocompleteContext): Promise<ApplicationCommandOptionChoiceData[]>;
  /** Buttons, select menus and modals whose custom id is `<command name>:<action>:...`. */
  components?: Record<string, ComponentHandler>;
}

export interface ComponentHandler {
  defer: 'update' | 'ephemeral' | 'none';
  /** Whether handling it may ask Eventor (default true), as the command's `callsEventor`. */
  callsEventor?: boolean;
  handle(ctx: ComponentContext): Promise<void>;
}

/** The custom id of a component handled by `command`'s `action`; Discord caps it at 100 characters. */
export function customId(command: string, action: string, ...args: Array<string | number>): string {
  const id = [command, action, ...args.map(String)].join(':');
  if (id.length > 100) throw new RangeError(`custom id too long: ${id.slice(0, 40)}…`);
  return id;
}
