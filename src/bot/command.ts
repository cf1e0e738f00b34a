/**
 * What a slash command is to the bot: its definition (with localised names and descriptions),
 * what it requires of the member, its handlers (one, or a table of subcommands) and its
 * components with their typed custom ids. One file per command lives in `commands/`; the router
 * does the rest (the checks declared here, dispatch, deferring, language, errors, logging).
 */
import type {
  ApplicationCommandOptionChoiceData,
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  InteractionEditReplyOptions,
  MessageComponentInteraction,
  ModalSubmitInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { GuildEventor } from '../club/eventor-access.js';
import type { Services } from '../app/services.js';
import type { Language, MessageKey, VarsArgument } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { CustomIdCodec } from './custom-ids.js';

// Commands import these from here with the rest of their context; they live in src/app, below the
// bot, because the feeds use them too.
export { UserFacingError } from '../i18n/user-facing-error.js';
export type { GuildEventor } from '../club/eventor-access.js';
export { type CustomIdValue, customIdCodec, idField, languageField, pageField } from './custom-ids.js';

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
  log: Logger;
  now(): Date;
  /** Origins besides the presets that /setup may connect to (the operator's EVENTOR_CUSTOM_URLS). */
  customEventorOrigins: readonly string[];
  /** The services of this running bot (its composition root, `createServices`). */
  services: Services;
  /** The slash commands the router serves (for /help, which must not import the list it is in). */
  commands: readonly BotCommand[];
}

/**
 * The handler's answer, with the visibility its route declares (`defer`): the router sends it the
 * cheapest way still in time (src/bot/first-answer.ts), as the first response or as the edit of a
 * deferral. Answering again replaces the answer. A `defer: 'none'` handler sends its own first
 * response (a reply, a modal); `answer` then edits it.
 */
export type Answer = (options: string | InteractionEditReplyOptions) => Promise<void>;

/**
 * The methods that send or change the answer, which a handler reaches only through `answer`: called
 * on the interaction itself they would bypass the first answer's timing and the declared visibility.
 */
type AnswerMethods = 'deferReply' | 'deferUpdate' | 'editReply' | 'update' | 'followUp' | 'deleteReply' | 'fetchReply';
/** An interaction as a handler sees it: everything but the methods that answer it. */
export type HandlerInteraction<I> = Omit<I, AnswerMethods>;

export interface CommandContext extends BaseContext {
  interaction: HandlerInteraction<ChatInputCommandInteraction>;
  answer: Answer;
}

export interface AutocompleteContext extends BaseContext {
  interaction: AutocompleteInteraction;
}

export interface ComponentContext extends BaseContext {
  interaction: HandlerInteraction<MessageComponentInteraction> | HandlerInteraction<ModalSubmitInteraction>;
  answer: Answer;
}

export type DeferMode = 'public' | 'ephemeral' | 'none';

/**
 * What the member must have before a handler runs. The router checks it once, for commands,
 * subcommands, autocomplete, buttons, selects and modals alike, and answers a refusal with one
 * message per case: Discord hiding a command, or a button sitting in an admin channel, proves
 * nothing, since any member can send any interaction with any custom id.
 */
export interface Requirements {
  /** A permission in the server (so the interaction must come from one): Manage Server for the admin commands. */
  permission?: 'manageGuild';
  /**
   * A linked Eventor person in this server: `any` link, or at least one made with the person's
   * Eventor password (`credentials`, PROVEN_LINK in the store), for what acts as a person in
   * Eventor. Which of the member's persons a handler may act as is the handler's to check.
   */
  linked?: 'any' | 'credentials';
}

/** One subcommand (key: its name, or `<group> <name>` inside a group); its declarations override the command's. */
export interface Subcommand {
  defer?: DeferMode;
  callsEventor?: boolean;
  requires?: Requirements;
  execute(ctx: CommandContext): Promise<void>;
}

interface CommandDeclarations {
  definition: RESTPostAPIChatInputApplicationCommandsJSONBody;
  /**
   * How the router acknowledges the command before the handler runs. Anything that may wait for
   * Eventor defers, because Discord allows only 3 s for the first answer.
   */
  defer: DeferMode | ((interaction: ChatInputCommandInteraction) => DeferMode);
  /**
   * Whether running it may ask Eventor (default true). Such commands count towards the member's
   * cooldown, which the router checks before anything else. Only what never reaches Eventor says
   * false, so a command that does not say errs on the side of the limit. A subcommand may say
   * otherwise for itself.
   */
  callsEventor?: boolean;
  /** What the member must have, for the command, its subcommands and its autocomplete. */
  requires?: Requirements;
  autocomplete?(ctx: AutocompleteContext): Promise<ApplicationCommandOptionChoiceData[]>;
  /** Buttons, select menus and modals, each addressed by its custom id codec's name. */
  components?: readonly ComponentHandler[];
}

/** A command runs one `execute`, or the router picks the handler from its table of `subcommands`. */
export type BotCommand = CommandDeclarations &
  (
    | { execute(ctx: CommandContext): Promise<void>; subcommands?: never }
    | { subcommands: Readonly<Record<string, Subcommand | ((ctx: CommandContext) => Promise<void>)>>; execute?: never }
  );

// A command lists handlers of different payloads; onComponent ties each one's codec to its handler.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ComponentHandler<Value = any> {
  /** The custom id: the router dispatches on its name and hands `handle` the decoded, validated value. */
  customId: CustomIdCodec<Value>;
  defer: 'update' | 'ephemeral' | 'none';
  /** Whether handling it may ask Eventor (default true), as the command's `callsEventor`. */
  callsEventor?: boolean;
  requires?: Requirements;
  handle(ctx: ComponentContext, value: Value): Promise<void>;
}

/** A component handler whose `handle` gets the type its codec decodes. */
export function onComponent<Value>(
  customId: CustomIdCodec<Value>,
  handler: Omit<ComponentHandler<Value>, 'customId'>,
): ComponentHandler<Value> {
  return { customId, ...handler };
}
