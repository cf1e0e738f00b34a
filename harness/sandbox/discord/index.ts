/**
 * Sandbox Discord: a loopback Discord (REST v10 + gateway) that a real discord.js v14 client
 * logs in to, for tests, the demo and benchmarks. Typical test:
 *
 *   const sandbox = await startSandboxDiscord({ now: () => clock });   // injectable clock
 *   const guild = sandbox.createGuild({ name: 'OK Linné', preferredLocale: 'sv-SE' });
 *   const channel = sandbox.createTextChannel(guild.id, { name: 'general' });
 *   const alice = sandbox.createMember(guild.id, { username: 'alice', locale: 'sv-SE' });
 *   const client = await loginSandboxClient(sandbox);                  // from './client.js'
 *   // ... the bot registers commands and handles interactions ...
 *   const reply = await sandbox
 *     .runCommand({ guildId: guild.id, channelId: channel.id, user: alice, name: 'events', options: { days: 7 } })
 *     .reply({ timeoutMs: 3000 });
 *   console.log(renderMessageText(reply));
 *   await client.destroy();   // always before sandbox.close(), or discord.js reconnects forever
 *   await sandbox.close();
 *
 * Errors come back as Discord would send them (DiscordAPIError with .code 50035, 50007, 50013,
 * 10062, 40060, 50027, 10003, ...); mistakes in the test itself (unknown command, option of the
 * wrong type, disabled button) throw plain Errors before anything is dispatched.
 */

export type { SandboxClientOptions } from './client.js';
export { loginSandboxClient } from './client.js';
export {
  CallbackType,
  ChannelType,
  ComponentType,
  ErrorCode,
  INITIAL_RESPONSE_DEADLINE_MS,
  INTERACTION_TOKEN_LIFETIME_MS,
  InteractionType,
  LOCALES,
  MessageFlag,
  OptionType,
  Permission,
  ScheduledEventEntityType,
  ScheduledEventPrivacyLevel,
  ScheduledEventStatus,
} from './constants.js';
export type { DelayFault, LostAnswerFault, RateLimitFault, RouteMatcher, ServerErrorFault } from './faults.js';
export { Faults } from './faults.js';
export type { GatewayFrame } from './gateway.js';
export type { GlobalRateLimitOptions } from './global-limit.js';
export { DISCORD_GLOBAL_RATE_LIMIT } from './global-limit.js';
export type { WaitOptions } from './handle.js';
export { InteractionHandle } from './handle.js';
export type { RequestLogEntry } from './http.js';
export type {
  AutocompleteInvocation,
  CommandInvocation,
  InteractionContext,
  OptionValue,
} from './interaction-payloads.js';
export type { AutocompleteChoice, InteractionEvent, ModalData } from './interaction-state.js';
export { embedLength, LIMITS } from './limits.js';
export type { RenderableMessage, RenderOptions, TimestampReader } from './render.js';
export { renderInteractionText, renderMessageText, renderTimestamps, visibleText } from './render.js';
export type { ButtonClick, MessageRef, ModalSubmission, SandboxDiscordOptions, SelectChoice } from './server.js';
export { SandboxDiscord, startSandboxDiscord } from './server.js';
export type { SessionStartLimit, ShardingOptions, ShardSpec } from './shards.js';
export { DISCORD_GUILDS_PER_SHARD, DISCORD_SESSION_START_TOTAL, shardOf } from './shards.js';
export type {
  ApiCommand,
  ApiCommandOption,
  ApiComponent,
  ApiEmbed,
  MessageRevision,
  SandboxChannel,
  SandboxGuild,
  SandboxMember,
  SandboxRole,
  SandboxUser,
} from './types.js';
export type { MessageView, ScheduledEventView } from './view.js';
export type {
  AddMemberOptions,
  CreateChannelOptions,
  CreateGuildOptions,
  CreateUserOptions,
  UserRef,
} from './world.js';
