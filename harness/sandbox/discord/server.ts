import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  ComponentType,
  InteractionType,
  isSelectType,
  MessageType,
  Permission,
  ScheduledEventEntityType,
  ScheduledEventPrivacyLevel,
  ScheduledEventStatus,
} from './constants.js';
import type { SandboxContext } from './context.js';
import { Faults } from './faults.js';
import { Gateway, type GatewayFrame } from './gateway.js';
import { DISCORD_GLOBAL_RATE_LIMIT, GlobalBucket, type GlobalRateLimitOptions } from './global-limit.js';
import { InteractionHandle, type WaitOptions } from './handle.js';
import { createRestHandler, type RequestLogEntry } from './http.js';
import { sandboxToken } from './ids.js';
import { LIMITS } from './limits.js';
import {
  type AutocompleteInvocation,
  basePayload,
  type CommandInvocation,
  commandData,
  findComponent,
  flattenComponents,
  type InteractionContext,
} from './interaction-payloads.js';
import {
  type AutocompleteChoice,
  type InteractionRecord,
  InteractionStore,
  type ModalData,
} from './interaction-state.js';
import { channelRoutes } from './routes-channels.js';
import { commandRoutes } from './routes-commands.js';
import { interactionRoutes } from './routes-interactions.js';
import { miscRoutes } from './routes-misc.js';
import {
  eventFromDraft,
  scheduledEventErrors,
  scheduledEventRoutes,
  tooManyScheduledEvents,
  unknownScheduledEvent,
  uncompletedCount,
} from './routes-scheduled-events.js';
import { type SessionStartLimit, Sharding, type ShardingOptions } from './shards.js';
import type {
  ApiCommand,
  ApiComponent,
  SandboxChannel,
  SandboxGuild,
  SandboxMember,
  SandboxMessage,
  SandboxRole,
  SandboxUser,
} from './types.js';
import { type MessageView, type ScheduledEventView, scheduledEventView, viewOf } from './view.js';
import {
  type AddMemberOptions,
  type CreateChannelOptions,
  type CreateGuildOptions,
  type CreateUserOptions,
  idOf,
  type UserRef,
  World,
} from './world.js';

export interface SandboxDiscordOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Injectable clock for timestamps, snowflakes and the 3 s / 15 min interaction deadlines. */
  now?: () => number;
  /** HELLO heartbeat interval (default 41 250 ms, Discord's usual value). */
  heartbeatIntervalMs?: number;
  /** Keep at most this many REST log entries, dropping the oldest (default 10 000; benchmarks). */
  requestLogLimit?: number;
  /** The bot's username (default "eventor-bot"). */
  botUsername?: string;
  /**
   * Discord's global rate limit on bot-token requests (default: Discord's, 50 a second; null: none).
   * Interaction callbacks and the interaction webhook are never limited by it, as in Discord.
   */
  globalRateLimit?: GlobalRateLimitOptions | null;
  /**
   * Gateway sharding (docs/discord.md#sharding): the most guilds one session may hold (default
   * 2,500, Discord's), the session start limit's total (default 1,000 a day), `max_concurrency`
   * and whether IDENTIFY bursts beyond it get op 9 (default not).
   */
  sharding?: ShardingOptions;
}

/** A message a component interaction refers to: the view/record itself or its id. */
export type MessageRef = string | { id: string };

export interface ButtonClick extends Omit<InteractionContext, 'guildId' | 'channelId'> {
  message: MessageRef;
  customId: string;
}

export interface SelectChoice extends ButtonClick {
  values: string[];
}

export interface ModalSubmission extends Omit<InteractionContext, 'guildId' | 'channelId'> {
  customId: string;
  /** Text input values by custom_id. */
  fields: Record<string, string>;
  /** Default: taken from the interaction that opened the modal. */
  guildId?: string;
  channelId?: string;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A loopback Discord: REST v10 under `restUrl` and a gateway on the same port, which a real
 * discord.js Client logs in to (`rest: { api: sandbox.restUrl }`, `client.login(sandbox.token)`),
 * plus the world-building and observation helpers tests and the demo use.
 */
export class SandboxDiscord {
  readonly faults = new Faults();
  readonly world: World;
  readonly now: () => number;
  private botToken = sandboxToken('bot');
  private readonly sharding: Sharding;
  private readonly interactions: InteractionStore;
  private readonly log: RequestLogEntry[] = [];
  private readonly server: Server;
  private readonly gateway: Gateway;
  private port = 0;
  private closed = false;
  private readonly requestLogLimit: number;

  constructor(options: SandboxDiscordOptions = {}) {
    this.now = options.now ?? Date.now;
    this.requestLogLimit = options.requestLogLimit ?? 10_000;
    this.world = new World(this.now, { ...(options.botUsername ? { username: options.botUsername } : {}) });
    this.interactions = new InteractionStore(this.now);
    this.sharding = new Sharding(this.now, options.sharding);
    const ctx: SandboxContext = {
      world: this.world,
      interactions: this.interactions,
      now: this.now,
      baseUrl: () => `http://127.0.0.1:${this.port}`,
      gatewayUrl: () => this.gatewayUrl,
      sharding: this.sharding,
    };
    const rest = createRestHandler({
      routes: [
        ...miscRoutes(ctx),
        ...commandRoutes(ctx),
        ...channelRoutes(ctx),
        ...interactionRoutes(ctx),
        ...scheduledEventRoutes(ctx),
      ],
      token: () => this.token,
      faults: this.faults,
      now: this.now,
      globalBucket:
        options.globalRateLimit === null
          ? null
          : new GlobalBucket(options.globalRateLimit ?? DISCORD_GLOBAL_RATE_LIMIT),
      log: (entry) => {
        this.log.push(entry);
        if (this.log.length > this.requestLogLimit) this.log.splice(0, this.log.length - this.requestLogLimit);
        this.world.changed('request');
        // The bot hears of transitions (UPDATE) without reading the events, as from Discord.
        this.world.settleScheduledEvents();
      },
    });
    this.gateway = new Gateway({
      world: this.world,
      token: () => this.token,
      gatewayUrl: () => this.gatewayUrl,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      now: this.now,
      sharding: this.sharding,
      onStartsExhausted: () => {
        this.botToken = sandboxToken('bot');
      },
    });
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const api = url.pathname.match(/^\/api\/v10(\/.*)?$/);
      if (api) {
        void rest(req, res, api[1] ?? '/', url.searchParams);
        return;
      }
      const file = url.pathname.match(/^\/attachments\/(\d+)\/(\d+)\//);
      const attachment = file ? this.findAttachment(file[1]!, file[2]!) : undefined;
      if (attachment) {
        res.writeHead(200, { 'Content-Type': attachment.content_type ?? 'application/octet-stream' });
        res.end(attachment.data);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: '404: Not Found', code: 0 }));
    });
    this.server.on('upgrade', (req, socket, head) => this.gateway.handleUpgrade(req, socket, head));
  }

  /** Listen on 127.0.0.1 (loopback only). */
  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Base for discord.js `rest.api` (discord.js appends `/v10`). */
  get restUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /**
   * The bot's token. Discord resets it when an IDENTIFY finds the session start limit used up
   * (docs/discord.md#sharding), and so does the sandbox: read it again after that.
   */
  get token(): string {
    return this.botToken;
  }

  /** What `GET /gateway/bot` reports as `session_start_limit` now. */
  sessionStartLimit(): SessionStartLimit {
    return this.sharding.sessionStartLimit();
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  get applicationId(): string {
    return this.world.applicationId;
  }

  get botUser(): SandboxUser {
    return this.world.botUser;
  }

  /** Stop listening and end gateway sockets. Destroy discord.js clients first (docs/discord.md#stopping-a-client). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // --------------------------------------------------------------------------------------------
  // World building

  createUser(options: CreateUserOptions): SandboxUser {
    return this.world.createUser(options);
  }

  createGuild(options: CreateGuildOptions): SandboxGuild {
    return this.world.createGuild(options);
  }

  createRole(guildId: string, options: { name: string; permissions?: bigint; color?: number }): SandboxRole {
    return this.world.createRole(guildId, options);
  }

  addMember(guildId: string, user: UserRef, options: AddMemberOptions = {}): SandboxMember {
    return this.world.addMember(guildId, user, options);
  }

  /** The user leaves the guild (DMs from the bot then fail with 50007 unless another guild is shared). */
  removeMember(guildId: string, user: UserRef): void {
    this.world.removeMember(guildId, user);
  }

  /**
   * The bot is removed from the guild (kicked, or the server deleted): GUILD_DELETE without
   * `unavailable`; afterwards REST answers 10004 for the guild and 50001 for what is in it.
   */
  removeBot(guildId: string): void {
    this.world.removeBot(guildId);
  }

  /** The bot is invited back: GUILD_CREATE, and the guild's REST routes answer again. */
  addBot(guildId: string): void {
    this.world.addBot(guildId);
  }

  /** An outage (`unavailable: true` GUILD_DELETE, and held back on connect) or its end (GUILD_CREATE). */
  setGuildUnavailable(guildId: string, unavailable = true): void {
    this.world.setGuildUnavailable(guildId, unavailable);
  }

  /**
   * Holds back the guild's GUILD_CREATE after READY (Discord sends them lazily), until released:
   * the bot meanwhile knows the guild only as unavailable, without its roles or channels.
   */
  holdGuildCreate(guildId: string, held = true): void {
    this.world.holdGuildCreate(guildId, held);
  }

  /** Create a user and make them a member of the guild in one step. */
  createMember(guildId: string, options: CreateUserOptions & AddMemberOptions): SandboxUser {
    const user = this.world.createUser(options);
    this.world.addMember(guildId, user, options);
    return user;
  }

  createTextChannel(guildId: string, options: CreateChannelOptions): SandboxChannel {
    return this.world.createChannel(guildId, options);
  }

  /** Deny (false) or restore (true) the bot's Send Messages in a channel via a member overwrite. */
  setBotCanPost(channelId: string, canPost: boolean): void {
    this.world.setBotPermission(channelId, Permission.SendMessages | Permission.SendMessagesInThreads, canPost);
  }

  /** Deny (false) or restore (true) the bot's Attach Files: messages and edits with files then fail with 50013. */
  setBotCanAttach(channelId: string, canAttach: boolean): void {
    this.world.setBotPermission(channelId, Permission.AttachFiles, canAttach);
  }

  /** Deny (false) or restore (true) the bot's View Channel: posting then fails with 50001 Missing Access. */
  setBotCanView(channelId: string, canView: boolean): void {
    this.world.setBotPermission(channelId, Permission.ViewChannel, canView);
  }

  /** Close (default) or reopen a user's DMs; the bot's DMs then fail with 50007. */
  closeDms(user: UserRef, closed = true): void {
    this.world.setDmsClosed(user, closed);
  }

  /**
   * A member deletes a message in the Discord client: their own, or anyone's with Manage Messages
   * in the channel. Discord then sends MESSAGE_DELETE; the bot's later edit of it gets 10008
   * Unknown Message.
   */
  deleteMessage(messageId: string, by: UserRef): void {
    const message = this.world.message(messageId);
    if (!message) throw new Error(`sandbox: unknown or deleted message ${messageId}`);
    const userId = idOf(by);
    const allowed = this.world.channelPermissions(message.channelId, userId);
    if (message.authorId !== userId && (allowed & (Permission.ManageMessages | Permission.Administrator)) === 0n)
      throw new Error(`sandbox: user ${userId} may not delete message ${messageId} (Manage Messages)`);
    this.world.deleteMessage(message);
  }

  deleteChannel(channelId: string): void {
    this.world.deleteChannel(channelId);
  }

  archiveThread(threadId: string): void {
    this.world.archiveThread(threadId);
  }

  // --------------------------------------------------------------------------------------------
  // Guild scheduled events (docs/discord.md#scheduled-events)

  /** Grant (true) or take away (false) the bot's Create Events on its role in the guild. */
  setBotCanCreateEvents(guildId: string, allowed: boolean): void {
    this.world.setBotRolePermission(guildId, Permission.CreateEvents, allowed);
  }

  /** Grant (true) or take away (false) the bot's Manage Events on its role in the guild. */
  setBotCanManageEvents(guildId: string, allowed: boolean): void {
    this.world.setBotRolePermission(guildId, Permission.ManageEvents, allowed);
  }

  /** The guild's scheduled events, oldest first, with the clock's automatic transitions applied. */
  scheduledEvents(guildId: string): ScheduledEventView[] {
    this.world.guild(guildId);
    return this.world.guildScheduledEvents(guildId).map(scheduledEventView);
  }

  /** After moving the clock: make the transitions now due happen (with their UPDATE dispatches). */
  settleScheduledEvents(): void {
    this.world.settleScheduledEvents();
  }

  scheduledEvent(guildId: string, eventId: string): ScheduledEventView | undefined {
    const event = this.world.scheduledEvent(guildId, eventId);
    return event ? scheduledEventView(event) : undefined;
  }

  /**
   * A member makes an EXTERNAL event in the Discord client (GUILD_SCHEDULED_EVENT_CREATE); Discord's
   * field rules and the 100 limit apply, and break as a plain Error. Their permissions are not checked.
   */
  createScheduledEvent(
    guildId: string,
    options: { creator: UserRef; name: string; start: number; end: number; location: string; description?: string },
  ): ScheduledEventView {
    this.world.guild(guildId);
    const creator = this.world.user(options.creator);
    const draft = {
      name: options.name,
      description: options.description,
      start: new Date(options.start).toISOString(),
      end: new Date(options.end).toISOString(),
      privacyLevel: ScheduledEventPrivacyLevel.GuildOnly,
      entityType: ScheduledEventEntityType.External,
      channelId: null,
      metadata: { location: options.location },
    };
    const errors = scheduledEventErrors(draft, this.now(), true);
    if (errors.length > 0) {
      throw new Error(
        `sandbox: invalid scheduled event: ${errors.map((e) => `${e.path.join('.')} ${e.message}`).join('; ')}`,
      );
    }
    if (uncompletedCount(this.world, guildId) >= LIMITS.uncompletedScheduledEvents)
      throw new Error(`sandbox: ${tooManyScheduledEvents().message}`);
    const event = eventFromDraft(draft, {
      id: this.world.ids.next(),
      guildId,
      creatorId: creator.id,
      status: ScheduledEventStatus.Scheduled,
    });
    return scheduledEventView(this.world.addScheduledEvent(event));
  }

  /** An admin deletes a scheduled event in the Discord client (GUILD_SCHEDULED_EVENT_DELETE). */
  deleteScheduledEvent(guildId: string, eventId: string): void {
    const event = this.world.scheduledEvent(guildId, eventId);
    if (!event) throw new Error(`sandbox: ${unknownScheduledEvent().message} ${eventId} in guild ${guildId}`);
    this.world.deleteScheduledEvent(event);
  }

  /** A human posts in a channel (MESSAGE_CREATE reaches bots that asked for message intents). */
  say(options: { channelId: string; user: UserRef; content: string }): MessageView {
    const channel = this.world.requireChannel(options.channelId);
    this.world.user(options.user);
    const message: SandboxMessage = {
      id: this.world.ids.next(),
      channelId: channel.id,
      guildId: channel.guildId,
      authorId: idOf(options.user),
      webhookId: null,
      interactionId: null,
      type: MessageType.Default,
      content: options.content,
      embeds: [],
      components: [],
      attachments: [],
      flags: 0,
      ephemeral: false,
      visibleTo: null,
      loading: false,
      messageReference: null,
      createdAt: this.now(),
      editedAt: null,
      edits: [],
      deleted: false,
      threadId: null,
      reactions: [],
    };
    return viewOf(this.world, this.world.addMessage(message));
  }

  // --------------------------------------------------------------------------------------------
  // Interactions

  private dispatchInteraction(
    type: number,
    ctx: InteractionContext,
    data: Record<string, unknown>,
    extra: { message?: SandboxMessage } = {},
  ): InteractionHandle {
    if (this.gateway.connectedSessions() === 0) {
      throw new Error('sandbox: no bot is connected to the gateway; log a client in before dispatching interactions');
    }
    if (this.gateway.connectedSessions(ctx.guildId ?? null) === 0) {
      throw new Error(
        `sandbox: no connected bot session is on the shard of ${ctx.guildId ? `guild ${ctx.guildId}` : 'DMs (shard 0)'}`,
      );
    }
    const id = this.world.ids.next();
    const token = sandboxToken('interaction');
    const base = basePayload(this.world, ctx, { id, token, type });
    const payload: Record<string, unknown> = { ...base.payload, data };
    if (extra.message) payload['message'] = this.world.apiMessage(extra.message);
    const record: InteractionRecord = {
      id,
      token,
      type,
      createdAt: this.now(),
      dispatchedAtMonotonicMs: 0,
      guildId: ctx.guildId ?? null,
      channelId: base.channel.id,
      userId: base.userId,
      locale: base.locale,
      payload,
      sourceMessageId: extra.message?.id ?? null,
      response: null,
      originalMessageId: null,
      followUpIds: [],
      choices: null,
      modal: null,
      history: [],
    };
    this.interactions.add(record);
    record.dispatchedAtMonotonicMs = performance.now();
    this.world.emit('dispatch', { t: 'INTERACTION_CREATE', d: payload, intents: 0 });
    return new InteractionHandle(this.world, this.waitFor, record);
  }

  /** A user runs a slash command; options are typed from the registered definition. */
  runCommand(invocation: CommandInvocation): InteractionHandle {
    return this.dispatchInteraction(
      InteractionType.ApplicationCommand,
      invocation,
      commandData(this.world, invocation),
    );
  }

  /** A user types into an autocomplete option; resolves to the choices the bot responded with. */
  async autocomplete(invocation: AutocompleteInvocation & WaitOptions): Promise<AutocompleteChoice[]> {
    return this.startAutocomplete(invocation).waitForChoices(invocation);
  }

  /** Like `autocomplete` but returns the handle (for deadline and error tests). */
  startAutocomplete(invocation: AutocompleteInvocation): InteractionHandle {
    const data = commandData(this.world, invocation, { name: invocation.focused, value: invocation.value });
    return this.dispatchInteraction(InteractionType.ApplicationCommandAutocomplete, invocation, data);
  }

  private componentTarget(
    ref: MessageRef,
    user: UserRef,
  ): { message: SandboxMessage; guildId?: string; channelId: string } {
    const message = this.world.message(typeof ref === 'string' ? ref : ref.id);
    if (!message) throw new Error(`sandbox: unknown or deleted message ${typeof ref === 'string' ? ref : ref.id}`);
    if (message.ephemeral && message.visibleTo !== idOf(user)) {
      throw new Error(`sandbox: message ${message.id} is ephemeral and not visible to user ${idOf(user)}`);
    }
    return { message, channelId: message.channelId, ...(message.guildId ? { guildId: message.guildId } : {}) };
  }

  /** A user clicks a button on a message. */
  clickButton(click: ButtonClick): InteractionHandle {
    const target = this.componentTarget(click.message, click.user);
    const component = findComponent(target.message, click.customId);
    if (component.type !== ComponentType.Button) throw new Error(`sandbox: "${click.customId}" is not a button`);
    const data = { custom_id: click.customId, component_type: ComponentType.Button };
    return this.dispatchInteraction(InteractionType.MessageComponent, { ...click, ...target }, data, {
      message: target.message,
    });
  }

  /** A user picks values in a select menu (string, user, role, mentionable or channel select). */
  selectMenu(choice: SelectChoice): InteractionHandle {
    const target = this.componentTarget(choice.message, choice.user);
    const component = findComponent(target.message, choice.customId);
    if (!isSelectType(component.type)) throw new Error(`sandbox: "${choice.customId}" is not a select menu`);
    const min = component.min_values ?? 1;
    const max = component.max_values ?? 1;
    if (choice.values.length < min || choice.values.length > max) {
      throw new Error(`sandbox: select "${choice.customId}" takes ${min}-${max} values, got ${choice.values.length}`);
    }
    if (component.type === ComponentType.StringSelect) {
      const allowed = new Set((component.options ?? []).map((o) => o.value));
      const bad = choice.values.filter((v) => !allowed.has(v));
      if (bad.length) throw new Error(`sandbox: select "${choice.customId}" has no option(s) ${bad.join(', ')}`);
    }
    const data: Record<string, unknown> = {
      custom_id: choice.customId,
      component_type: component.type,
      values: choice.values,
    };
    const resolved = this.resolveSelected(component, choice.values, target.guildId);
    if (resolved) data['resolved'] = resolved;
    return this.dispatchInteraction(InteractionType.MessageComponent, { ...choice, ...target }, data, {
      message: target.message,
    });
  }

  private resolveSelected(
    component: ApiComponent,
    values: string[],
    guildId: string | undefined,
  ): Record<string, unknown> | null {
    if (component.type === ComponentType.StringSelect) return null;
    const users: Record<string, unknown> = {};
    const members: Record<string, unknown> = {};
    const roles: Record<string, unknown> = {};
    const channels: Record<string, unknown> = {};
    for (const value of values) {
      if (
        this.world.users.has(value) &&
        component.type !== ComponentType.RoleSelect &&
        component.type !== ComponentType.ChannelSelect
      ) {
        users[value] = this.world.apiUser(value);
        if (guildId && this.world.member(guildId, value))
          members[value] = this.world.apiMember(guildId, value, { withUser: false });
      } else if (
        this.world.roles.has(value) &&
        component.type !== ComponentType.UserSelect &&
        component.type !== ComponentType.ChannelSelect
      ) {
        roles[value] = this.world.apiRole(value);
      } else if (this.world.channel(value) && component.type === ComponentType.ChannelSelect) {
        const channel = this.world.channel(value)!;
        channels[value] = {
          id: value,
          name: channel.name,
          type: channel.type,
          permissions: this.world.channelPermissions(value, this.world.botUser.id).toString(),
        };
      } else {
        throw new Error(`sandbox: select value ${value} does not resolve for component type ${component.type}`);
      }
    }
    return { users, members, roles, channels };
  }

  /** A user submits a modal the bot showed them earlier (matched by custom_id). */
  submitModal(submission: ModalSubmission): InteractionHandle {
    const userId = idOf(submission.user);
    const opener = this.interactions
      .all()
      .filter((r) => r.userId === userId && r.modal?.custom_id === submission.customId)
      .at(-1);
    if (!opener?.modal)
      throw new Error(`sandbox: the bot never showed modal "${submission.customId}" to user ${userId}`);
    const components = this.modalAnswer(opener.modal, submission.fields);
    const source = opener.sourceMessageId ? this.world.message(opener.sourceMessageId) : undefined;
    const ctx: InteractionContext = {
      ...submission,
      channelId: submission.channelId ?? opener.channelId,
      ...((submission.guildId ?? opener.guildId) ? { guildId: (submission.guildId ?? opener.guildId)! } : {}),
    };
    return this.dispatchInteraction(
      InteractionType.ModalSubmit,
      ctx,
      { custom_id: submission.customId, components },
      source ? { message: source } : {},
    );
  }

  /** Mirror the modal's layout (legacy rows or labels) with the submitted values; enforce required/lengths. */
  private modalAnswer(modal: ModalData, fields: Record<string, string>): ApiComponent[] {
    const inputs = flattenComponents(modal.components).filter((c) => c.type === ComponentType.TextInput);
    const known = new Set(inputs.map((c) => c.custom_id));
    for (const key of Object.keys(fields)) {
      if (!known.has(key)) throw new Error(`sandbox: modal "${modal.custom_id}" has no text input "${key}"`);
    }
    for (const input of inputs) {
      const value = fields[input.custom_id!] ?? '';
      const where = `modal "${modal.custom_id}" field "${input.custom_id}"`;
      if (input.required !== false && value === '') throw new Error(`sandbox: ${where} is required`);
      if (value !== '' && input.min_length !== undefined && value.length < input.min_length)
        throw new Error(`sandbox: ${where} is shorter than ${input.min_length}`);
      if (input.max_length !== undefined && value.length > input.max_length)
        throw new Error(`sandbox: ${where} is longer than ${input.max_length}`);
    }
    const answer = (input: ApiComponent): ApiComponent => ({
      type: ComponentType.TextInput,
      custom_id: input.custom_id!,
      value: fields[input.custom_id!] ?? '',
    });
    return modal.components
      .map((c): ApiComponent | null => {
        if (c.type === ComponentType.ActionRow) {
          return {
            type: ComponentType.ActionRow,
            components: (c.components ?? []).filter((i) => i.type === ComponentType.TextInput).map(answer),
          };
        }
        if (c.type === ComponentType.Label && c.component?.type === ComponentType.TextInput) {
          return { type: ComponentType.Label, component: answer(c.component) };
        }
        return null;
      })
      .filter((c): c is ApiComponent => c !== null);
  }

  /** A handle for an interaction dispatched earlier. */
  interaction(id: string): InteractionHandle | undefined {
    const record = this.interactions.get(id);
    return record ? new InteractionHandle(this.world, this.waitFor, record) : undefined;
  }

  // --------------------------------------------------------------------------------------------
  // Observation

  /** Messages in a channel, oldest first, with edits applied (ephemeral ones only on request). */
  messages(channelId: string, options: { includeEphemeral?: boolean; includeDeleted?: boolean } = {}): MessageView[] {
    return this.world.channelMessageList(channelId, options).map((m) => viewOf(this.world, m));
  }

  message(id: string): MessageView | undefined {
    const message = this.world.messagesById.get(id);
    return message ? viewOf(this.world, message) : undefined;
  }

  /** The files a message carries now (after edits), with their bytes; empty for an unknown message. */
  attachments(messageId: string): {
    id: string;
    name: string;
    description: string | undefined;
    contentType: string | undefined;
    url: string;
    bytes: Buffer;
  }[] {
    const message = this.world.messagesById.get(messageId);
    return (message?.attachments ?? []).map((a) => ({
      id: a.id,
      name: a.filename,
      description: a.description,
      contentType: a.content_type,
      url: a.url,
      bytes: Buffer.from(a.data),
    }));
  }

  /** Messages the bot sent to a user by DM, oldest first. */
  dms(user: UserRef): MessageView[] {
    const channelId = this.world.dmChannelIdOf(idOf(user));
    return channelId ? this.messages(channelId) : [];
  }

  /** Registered commands: global when `guildId` is omitted. */
  commands(options: { guildId?: string } = {}): ApiCommand[] {
    return structuredClone([...(this.world.commands.get(options.guildId ?? '')?.values() ?? [])]);
  }

  /** Every REST call so far (method, path, route template, status, error code; never the token). */
  requests(): RequestLogEntry[] {
    return [...this.log];
  }

  /** Gateway frames the bot sent (tokens redacted). */
  gatewayFrames(): GatewayFrame[] {
    return [...this.gateway.frames];
  }

  /** Close the bot's gateway sockets with a resumable code (the client reconnects and RESUMEs). */
  dropGatewayConnections(): void {
    this.gateway.dropConnections();
  }

  /**
   * Resolve with the predicate's first truthy value; re-checked on every change in the sandbox
   * (and at least every 25 ms for predicates over outside state). Rejects after `timeoutMs`.
   */
  readonly waitFor = <T>(
    predicate: () => T | undefined | null | false,
    options: WaitOptions & { description?: string } = {},
  ): Promise<T> => {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = (fn: () => void): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(poll);
        this.world.off('change', check);
        fn();
      };
      const check = (): void => {
        try {
          const value = predicate();
          if (value !== undefined && value !== null && value !== false) finish(() => resolve(value));
        } catch (error) {
          finish(() => reject(error));
        }
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(`sandbox: timed out after ${timeoutMs} ms waiting for ${options.description ?? 'condition'}`),
            ),
          ),
        timeoutMs,
      );
      const poll = setInterval(check, 25);
      this.world.on('change', check);
      check();
    });
  };

  /** Wait for a (non-ephemeral) message in a channel matching the predicate. */
  waitForMessage(
    channelId: string,
    predicate: (m: MessageView) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<MessageView> {
    return this.waitFor(() => this.messages(channelId).find(predicate), {
      ...options,
      description: `a message in channel ${channelId}`,
    });
  }

  /** Wait for a DM to the user matching the predicate. */
  waitForDm(
    user: UserRef,
    predicate: (m: MessageView) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<MessageView> {
    return this.waitFor(() => this.dms(user).find(predicate), { ...options, description: `a DM to ${idOf(user)}` });
  }

  private findAttachment(channelId: string, id: string): SandboxMessage['attachments'][number] | undefined {
    for (const message of this.world.messagesById.values()) {
      if (message.channelId !== channelId) continue;
      const found = message.attachments.find((a) => a.id === id);
      if (found) return found;
    }
    return undefined;
  }
}

/** Start a sandbox Discord on 127.0.0.1 (port 0 = any free port). */
export async function startSandboxDiscord(options: SandboxDiscordOptions = {}): Promise<SandboxDiscord> {
  return new SandboxDiscord(options).listen(options.port ?? 0);
}
