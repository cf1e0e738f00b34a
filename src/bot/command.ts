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
import type { EventorClient } from '../eventor/client.js';
import type { EventorInstance } from '../eventor/instances.js';
import { Message, type Language, type MessageKey, type VarsArgument } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';

/** The Eventor a server uses: its own from /setup, else the operator's default. */
export interface GuildEventor {
  client: EventorClient;
  instance: EventorInstance;
  organisationId: string;
  organisationName: string;
  /** When Eventor last answered this connection (not its cache) since the bot started. */
  lastAnswer(): Date | null;
}

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
  t<K extends MessageKey>(key: K, ...vars: VarsArgument<K>): string;
  guild: GuildContext;
  store: Store;
  log: Logger;
  now(): Date;
  /** Origins besides the presets that /setup may connect to (the operator's EVENTOR_CUSTOM_URLS). */
  customEventorOrigins: readonly string[];
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

/** An error whose message the member should see, in their language. */
export class UserFacingError<K extends MessageKey = MessageKey> extends Error {
  /** The key with its variables, checked against the key's text as `t()` checks them. */
  readonly said: Message<K>;

  constructor(
    readonly key: K,
    ...vars: VarsArgument<K>
  ) {
    super(key);
    this.name = 'UserFacingError';
    this.said = Message.of(key, ...vars);
  }
}

/** The custom id of a component handled by `command`'s `action`; Discord caps it at 100 characters. */
export function customId(command: string, action: string, ...args: Array<string | number>): string {
  const id = [command, action, ...args.map(String)].join(':');
  if (id.length > 100) throw new RangeError(`custom id too long: ${id.slice(0, 40)}…`);
  return id;
}
