/** Public surface of the sandbox Discord (see server.ts for the entry point). */
export { startSandboxDiscord, SandboxDiscord } from './server.js';
export type { SandboxDiscordOptions, MessageRef, ButtonClick, SelectChoice, ModalSubmission } from './server.js';
export { InteractionHandle } from './handle.js';
export type { WaitOptions } from './handle.js';
export type { AutocompleteChoice, InteractionEvent, ModalData } from './interaction-state.js';
export type { CommandInvocation, AutocompleteInvocation, InteractionContext, OptionValue } from './interaction-payloads.js';
export type { MessageView } from './view.js';
export type { RequestLogEntry } from './http.js';
export type { GatewayFrame } from './gateway.js';
export type { RateLimitFault, ServerErrorFault, DelayFault, RouteMatcher } from './faults.js';
export { Faults } from './faults.js';
export { renderMessageText } from './render.js';
export type { RenderableMessage, RenderOptions } from './render.js';
export { LIMITS, embedLength } from './limits.js';
export {
  Permission,
  ChannelType,
  InteractionType,
  CallbackType,
  OptionType,
  ComponentType,
  MessageFlag,
  ErrorCode,
  LOCALES,
  INITIAL_RESPONSE_DEADLINE_MS,
  INTERACTION_TOKEN_LIFETIME_MS,
} from './constants.js';
export type { UserRef, CreateUserOptions, CreateGuildOptions, AddMemberOptions, CreateChannelOptions } from './world.js';
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
