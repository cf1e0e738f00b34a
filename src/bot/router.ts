/**
 * Routes every interaction to its command: acknowledges in time, picks the member's language,
 * gives each interaction a correlation id in the logs, and turns any failure into a friendly,
 * localised message. Nothing a handler throws reaches discord.js unhandled.
 */
import {
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
} from 'discord.js';
import type { EventorAccess } from '../club/eventor-access.js';
import { isProvenLink } from '../app/linking.js';
import type { Services } from '../app/services.js';
import { EventorError } from '../eventor/errors.js';
import {
  type Language,
  languageFor,
  type MessageKey,
  type PlainKey,
  serverLanguage,
  t,
  translate,
  type VarsArgument,
} from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import {
  type BaseContext,
  type BotCommand,
  type CommandContext,
  type ComponentHandler,
  type Answer,
  type DeferMode,
  type GuildContext,
  type Requirements,
  UserFacingError,
} from './command.js';
import { type CooldownOptions, MemberCooldown } from './cooldown.js';
import { customIdName } from './custom-ids.js';
import { type FirstAnswerKind, FirstAnswers } from './first-answer.js';
import { answerOptions } from './render-context.js';

export interface RouterOptions {
  commands: readonly BotCommand[];
  eventor: EventorAccess;
  services: Services;
  log: Logger;
  defaultLanguage: Language;
  defaultTimeZone: string;
  customEventorOrigins?: readonly string[];
  now?: () => Date;
  /** The per-member budgets (default `MEMBER_COOLDOWNS`); null turns them off, for test suites that are scripts, not people. */
  cooldowns?: MemberCooldowns | null;
  /** How this bot's first answers share the event loop (`startBot` makes one per bot; default: the router's own). */
  firstAnswers?: FirstAnswers;
}

export interface MemberCooldowns {
  /** Slash commands and component clicks that may ask Eventor. */
  eventor: CooldownOptions;
  autocomplete: CooldownOptions;
}

/**
 * Commands and component clicks that may ask Eventor, per member: far more than a person typing
 * and clicking manages, far fewer than a script firing made-up ids at the club's key.
 */
const EVENTOR_COOLDOWN: CooldownOptions = { limit: 10, windowMs: 20_000, maxMembers: 10_000 };
/**
 * Autocomplete has its own, larger budget: Discord sends one per keystroke, and the lists it
 * searches (events in a date window, the club's members, its activities) are cached, so typed text
 * alone does not make new Eventor requests. The budget stops a script posing as fast typing.
 */
const AUTOCOMPLETE_COOLDOWN: CooldownOptions = { limit: 60, windowMs: 20_000, maxMembers: 10_000 };

export const MEMBER_COOLDOWNS: MemberCooldowns = { eventor: EVENTOR_COOLDOWN, autocomplete: AUTOCOMPLETE_COOLDOWN };

/** The permissions a declaration may name, in Discord's terms. */
const PERMISSIONS = { manageGuild: PermissionFlagsBits.ManageGuild } as const satisfies Record<
  NonNullable<Requirements['permission']>,
  bigint
>;

/** A slash command's handler once its subcommand is known, with the declarations that apply to it. */
interface Route {
  execute(ctx: CommandContext): Promise<void>;
  defer: DeferMode;
  callsEventor: boolean;
  requires: Requirements;
}

/** Discord allows 3 s for autocomplete; leave room for the answer's own trip. */
const AUTOCOMPLETE_BUDGET_MS = 2_500;

export class InteractionRouter {
  readonly #commands = new Map<string, BotCommand>();
  /** Component handlers by their custom id codec's name. */
  readonly #components = new Map<string, ComponentHandler>();
  readonly #options: RouterOptions;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #eventorCooldown: MemberCooldown | null;
  readonly #autocompleteCooldown: MemberCooldown | null;
  readonly #firstAnswers: FirstAnswers;

  constructor(options: RouterOptions) {
    this.#options = options;
    this.#firstAnswers = options.firstAnswers ?? new FirstAnswers();
    const cooldowns = options.cooldowns === undefined ? MEMBER_COOLDOWNS : options.cooldowns;
    this.#eventorCooldown = cooldowns ? new MemberCooldown(cooldowns.eventor) : null;
    this.#autocompleteCooldown = cooldowns ? new MemberCooldown(cooldowns.autocomplete) : null;
    for (const command of options.commands) {
      this.#commands.set(command.definition.name, command);
      for (const handler of command.components ?? []) {
        // Two handlers for one name would make one of them unreachable.
        if (this.#components.has(handler.customId.name))
          throw new Error(`two component handlers for ${handler.customId.name}`);
        this.#components.set(handler.customId.name, handler);
      }
    }
  }

  /** Handles one interaction; the promise settles when the handler is done, never rejects. */
  handle(interaction: Interaction): Promise<void> {
    const work = this.#dispatch(interaction).finally(() => this.#inFlight.delete(work));
    this.#inFlight.add(work);
    return work;
  }

  /** Resolves when every interaction being handled has been answered (for a clean shutdown). */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #dispatch(interaction: Interaction): Promise<void> {
    const log = this.#options.log.child({
      interaction: interaction.id,
      guild: interaction.guildId,
      user: interaction.user.id,
    });
    const started = Date.now();
    try {
      if (interaction.isChatInputCommand()) await this.#command(interaction, log);
      else if (interaction.isAutocomplete()) await this.#autocomplete(interaction, log);
      else if (interaction.isMessageComponent() || interaction.isModalSubmit()) await this.#component(interaction, log);
    } catch (error) {
      log.error('interaction failed outside its handler', { error });
    } finally {
      log.debug('interaction done', { ms: Date.now() - started });
    }
  }

  async #context(interaction: Interaction | MessageComponentInteraction, log: Logger): Promise<BaseContext> {
    const language = languageFor(interaction.locale);
    const settings = interaction.guildId ? await this.#options.services.setup.settings(interaction.guildId) : null;
    const access = this.#options.eventor;
    const guild: GuildContext = {
      id: interaction.guildId,
      language: serverLanguage(settings?.locale, interaction.guildLocale, this.#options.defaultLanguage),
      timeZone: settings?.timeZone ?? this.#options.defaultTimeZone,
      eventor: () => access.forGuild(interaction.guildId),
    };
    return {
      language,
      t: <K extends MessageKey>(key: K, ...vars: VarsArgument<K>) => t(language, key, ...vars),
      guild,
      log,
      now: this.#options.now ?? (() => new Date()),
      customEventorOrigins: this.#options.customEventorOrigins ?? [],
      services: this.#options.services,
      commands: this.#options.commands,
    };
  }

  async #command(interaction: ChatInputCommandInteraction, log: Logger): Promise<void> {
    const command = this.#commands.get(interaction.commandName);
    log.info('command', { command: interaction.commandName, subcommand: interaction.options.getSubcommand(false) });
    const ctx = { ...(await this.#context(interaction, log)), interaction };
    const route = command ? routeOf(command, interaction) : null;
    if (!route) {
      await interaction.reply({ content: ctx.t('error.unexpected'), flags: MessageFlags.Ephemeral });
      return;
    }
    let mode: DeferMode = 'none';
    try {
      if (await turnedAway(interaction, await this.#refusal(interaction, route.requires, ctx, log))) return;
      if (route.callsEventor && (await turnedAway(interaction, this.#slowDown(interaction, ctx, log)))) return;
      mode = route.defer;
      await this.#answering(interaction, mode === 'none' ? null : { reply: mode }, log, (answer) =>
        route.execute({ ...ctx, answer }),
      );
    } catch (error) {
      await this.#fail(interaction, error, ctx.language, log, { publicAnswer: mode === 'public' });
    }
  }

  async #autocomplete(interaction: AutocompleteInteraction, log: Logger): Promise<void> {
    const command = this.#commands.get(interaction.commandName);
    let choices: Awaited<ReturnType<NonNullable<BotCommand['autocomplete']>>> = [];
    const ctx = { ...(await this.#context(interaction, log)), interaction };
    // Over the budget, the answer is the empty list autocomplete gives when it fails: the member can still type.
    // The declared requirements of the command (or its subcommand) hold for its suggestions too: a
    // member who may not run it gets the empty list, and no club data.
    const sub = command ? subcommandOf(command, interaction) : undefined;
    const requires: Requirements = { ...command?.requires, ...(typeof sub === 'object' ? sub.requires : undefined) };
    if (command?.autocomplete && (await this.#unmet(interaction, requires)) !== null) {
      log.info('autocomplete refused: a requirement is not met', { command: interaction.commandName });
    } else if (
      command?.autocomplete &&
      this.#autocompleteCooldown &&
      this.#autocompleteCooldown.take(interaction.user.id, ctx.now().getTime()) > 0
    ) {
      log.info("autocomplete over the member's budget", { command: interaction.commandName });
    } else if (command?.autocomplete) {
      let timer: NodeJS.Timeout | undefined;
      try {
        choices = await Promise.race([
          command.autocomplete(ctx),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('autocomplete took too long')), AUTOCOMPLETE_BUDGET_MS);
          }),
        ]);
      } catch (error) {
        // An empty list is the only answer autocomplete can give; the member can still type.
        log.warn('autocomplete failed', { command: interaction.commandName, error });
      } finally {
        clearTimeout(timer);
      }
    }
    await interaction.respond(choices.slice(0, 25));
  }

  async #component(interaction: MessageComponentInteraction | ModalSubmitInteraction, log: Logger): Promise<void> {
    const name = customIdName(interaction.customId);
    const handler = this.#components.get(name);
    const ctx = { ...(await this.#context(interaction, log)), interaction };
    log.info('component', { component: name });
    if (!handler) {
      await interaction.reply({ content: ctx.t('error.staleComponent'), flags: MessageFlags.Ephemeral });
      return;
    }
    const updating =
      handler.defer === 'update' &&
      (interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage()));
    // A failure must not replace a message others see (a public list being paged) with the error.
    const shared = updating && interaction.message !== null && !interaction.message.flags.has(MessageFlags.Ephemeral);
    try {
      // Before the id is even read: whoever may not use the component learns nothing from it.
      if (await turnedAway(interaction, await this.#refusal(interaction, handler.requires ?? {}, ctx, log))) return;
      const value: unknown = handler.customId.decode(interaction.customId);
      if (value === null) {
        log.info('component refused: its custom id does not decode', { component: name });
        await interaction.reply({ content: ctx.t('error.staleComponent'), flags: MessageFlags.Ephemeral });
        return;
      }
      if ((handler.callsEventor ?? true) && (await turnedAway(interaction, this.#slowDown(interaction, ctx, log))))
        return;
      const kind: FirstAnswerKind | null = updating
        ? { update: true }
        : handler.defer === 'none'
          ? null
          : { reply: 'ephemeral' };
      await this.#answering(interaction, kind, log, (answer) => handler.handle({ ...ctx, answer }, value));
    } catch (error) {
      await this.#fail(interaction, error, ctx.language, log, { shared });
    }
  }

  /**
   * Runs a handler with its first answer (src/bot/first-answer.ts), or none for a handler that sends
   * its own (`defer: 'none'`; its `answer` then edits what it sent). Whether it succeeds or fails,
   * the deferral has settled before this does, so that `deferred` and `replied` tell the failure
   * message where to go.
   */
  async #answering(
    interaction: ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction,
    kind: FirstAnswerKind | null,
    log: Logger,
    work: (answer: Answer) => Promise<void>,
  ): Promise<void> {
    const first = kind === null ? null : this.#firstAnswers.begin(interaction, kind, log);
    // A payload's pictures become files here, whichever way a handler hands its answer over.
    const answer: Answer = first
      ? async (options) => void (await first.answer(answerOptions(options)))
      : async (options) => void (await interaction.editReply(answerOptions(options)));
    try {
      await first?.ready();
      await work(answer);
      await first?.settle();
    } catch (error) {
      await first?.settle().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The one check of what a command or component declares it requires: the first requirement the
   * member does not meet, as the message they read, or null when all are met.
   */
  async #unmet(
    interaction:
      ChatInputCommandInteraction | AutocompleteInteraction | MessageComponentInteraction | ModalSubmitInteraction,
    requires: Requirements,
  ): Promise<PlainKey | null> {
    if (requires.permission !== undefined) {
      if (!interaction.inGuild()) return 'linking.guildOnly';
      if (!interaction.memberPermissions.has(PERMISSIONS[requires.permission])) return 'linking.notAdmin';
    }
    if (requires.linked !== undefined) {
      if (!interaction.inGuild()) return 'linking.guildOnly';
      const links = await this.#options.services.linking.linkedPersons(interaction.guildId, interaction.user.id);
      if (links.length === 0) return 'error.notLinked';
      if (requires.linked === 'credentials' && !links.some(isProvenLink)) return 'linking.whoami.notProven';
    }
    return null;
  }

  /** The answer to a member who does not meet a declared requirement, or null when they meet them all. */
  async #refusal(
    interaction: ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction,
    requires: Requirements,
    ctx: BaseContext,
    log: Logger,
  ): Promise<string | null> {
    const key = await this.#unmet(interaction, requires);
    if (key === null) return null;
    log.info('refused: a declared requirement is not met', { key });
    return ctx.t(key);
  }

  /**
   * Counts an interaction that may ask Eventor against the member's budget; over it, the answer
   * saying when to try again, else null.
   */
  #slowDown(interaction: { user: { id: string } }, ctx: BaseContext, log: Logger): string | null {
    const waitMs = this.#eventorCooldown?.take(interaction.user.id, ctx.now().getTime()) ?? 0;
    if (waitMs === 0) return null;
    const seconds = Math.ceil(waitMs / 1000);
    log.info('member slowed down', { seconds });
    return ctx.t('error.slowDown', { seconds });
  }

  async #fail(
    interaction: ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction,
    error: unknown,
    language: Language,
    log: Logger,
    where: {
      /** The interaction updates a message others see (a page button): the error goes privately to the member. */
      shared?: boolean;
      /** The command answers publicly: its "thinking…" placeholder, if it was sent, is seen by the whole channel. */
      publicAnswer?: boolean;
    } = {},
  ): Promise<void> {
    const key = messageFor(error);
    if (key === 'error.unexpected') log.error('command failed', { error });
    else log.warn('command answered with an error message', { key, error });
    const content = error instanceof UserFacingError ? translate(language, error.said) : t(language, failureKey(error));
    const privately = { content, flags: MessageFlags.Ephemeral } as const;
    try {
      if (interaction.deferred && !interaction.replied && where.publicAnswer && !concernsEveryone(key)) {
        // The member's own mistake does not belong in the channel: the public placeholder goes,
        // and only they see the message (a follow-up after the deletion is a message of its own,
        // so it can be ephemeral; before it, it would fill the public placeholder).
        await interaction.deleteReply();
        await interaction.followUp(privately);
      } else if (interaction.deferred || interaction.replied) {
        // Ephemeral follow-up rather than replacing a public reply with an error.
        if (interaction.deferred && !interaction.replied && !where.shared)
          await interaction.editReply({ content, embeds: [], components: [] });
        else await interaction.followUp(privately);
      } else if (where.publicAnswer && concernsEveryone(key)) {
        // Nothing was sent yet (the failure came before any wait): what concerns everyone is said
        // where the answer would have been, as it would have filled the public placeholder.
        await interaction.reply({ content });
      } else {
        await interaction.reply(privately);
      }
    } catch (replyError) {
      log.error('could not tell the member about the failure', { error: replyError });
    }
  }
}

/** The subcommand an interaction names in the command's table, if it has one (own keys only: a hand-made `constructor` reaches nothing). */
function subcommandOf(
  command: BotCommand,
  interaction: ChatInputCommandInteraction | AutocompleteInteraction,
): Exclude<NonNullable<BotCommand['subcommands']>[string], undefined> | undefined {
  if (!command.subcommands) return undefined;
  const group = interaction.options.getSubcommandGroup(false);
  const name = interaction.options.getSubcommand(false) ?? '';
  const key = group ? `${group} ${name}` : name;
  return Object.hasOwn(command.subcommands, key) ? command.subcommands[key] : undefined;
}

/** The handler a slash command runs and the declarations that apply to it; null for a subcommand the table does not have. */
function routeOf(command: BotCommand, interaction: ChatInputCommandInteraction): Route | null {
  const defer = typeof command.defer === 'function' ? command.defer(interaction) : command.defer;
  const callsEventor = command.callsEventor ?? true;
  if (command.execute)
    return { execute: command.execute.bind(command), defer, callsEventor, requires: command.requires ?? {} };
  const sub = subcommandOf(command, interaction);
  if (!sub) return null;
  if (typeof sub === 'function') return { execute: sub, defer, callsEventor, requires: command.requires ?? {} };
  return {
    execute: sub.execute.bind(sub),
    defer: sub.defer ?? defer,
    callsEventor: sub.callsEventor ?? callsEventor,
    requires: { ...command.requires, ...sub.requires },
  };
}

/**
 * Failures that concern every member alike (Eventor is down or refuses the server's key, the
 * server is not set up, the bot itself failed): they may stay in a public answer, since anyone
 * trying again meets them too. Every other message is about what this member typed or picked
 * (a bad date, an unknown member, a made-up id) and is shown to them alone.
 */
const SHARED_FAILURES: ReadonlySet<MessageKey> = new Set<MessageKey>([
  'error.unexpected',
  'error.notConfigured',
  'error.invalidApiKey',
  'error.eventorUnavailable',
  'error.eventorAnswerTooLarge',
  'error.eventorNotPermitted',
  'error.eventorListMissing',
]);

export function concernsEveryone(key: MessageKey): boolean {
  return SHARED_FAILURES.has(key);
}

/**
 * Answers at once and privately, before anything is deferred or asked of Eventor, when there is an
 * answer (a refusal, a slow-down); returns whether there was.
 */
async function turnedAway(
  interaction: ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction,
  answer: string | null,
): Promise<boolean> {
  if (answer === null) return false;
  await interaction.reply({ content: answer, flags: MessageFlags.Ephemeral });
  return true;
}

/**
 * Eventor operations about one thing the member named by its id: their 404 means that thing does
 * not exist (the member's mistake). A 404 on any other operation, a list, means Eventor has no such
 * list at this address or what it lists is gone, which concerns everyone.
 */
const NOT_FOUND_MEANS: Readonly<Record<string, PlainKey>> = {
  event: 'error.eventNotFound',
  eventclasses: 'error.eventNotFound',
  entryfees: 'error.eventNotFound',
  'starts-event': 'error.eventNotFound',
  'starts-event-iofxml': 'error.eventNotFound',
  'results-event': 'error.eventNotFound',
  'results-event-iofxml': 'error.eventNotFound',
  activity: 'members.error.unknownActivity',
};

/** The message a member sees for a failure. */
export function messageFor(error: unknown): MessageKey {
  return error instanceof UserFacingError ? error.key : failureKey(error);
}

/** The message for a failure the code did not phrase itself (Eventor's, or a bug). */
function failureKey(error: unknown): PlainKey {
  if (error instanceof EventorError) {
    switch (error.code) {
      case 'InvalidApiKey':
        return 'error.invalidApiKey';
      case 'AuthenticationFailed':
        // Outside /link (which handles its own wrong password), a 401 is Eventor refusing the key this request.
        return 'error.eventorNotPermitted';
      case 'NotFound':
        return (
          (error.operation !== undefined && Object.hasOwn(NOT_FOUND_MEANS, error.operation)
            ? NOT_FOUND_MEANS[error.operation]
            : undefined) ?? 'error.eventorListMissing'
        );
      case 'RateLimited':
      case 'Upstream':
      case 'Unreachable':
      case 'Timeout':
      case 'InvalidResponse':
        return 'error.eventorUnavailable';
      case 'ResponseTooLarge':
        return 'error.eventorAnswerTooLarge';
      default:
        return 'error.unexpected';
    }
  }
  return 'error.unexpected';
}
