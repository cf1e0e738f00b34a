/**
 * Shapes of the sandbox's world and of the (loosely typed) Discord wire objects it stores.
 * Wire objects stay close to Discord's snake_case JSON because the sandbox echoes them back to
 * discord.js; only the world records are camelCase.
 */

export interface ApiEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface ApiEmbed {
  type?: string;
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  fields?: ApiEmbedField[];
  footer?: { text: string; icon_url?: string };
  author?: { name: string; url?: string; icon_url?: string };
  image?: { url: string };
  thumbnail?: { url: string };
}

export interface ApiSelectOption {
  label: string;
  value: string;
  description?: string;
  default?: boolean;
  emoji?: unknown;
}

/** Any component (rows, buttons, selects, text inputs, labels, V2 display components). */
export interface ApiComponent {
  type: number;
  id?: number;
  custom_id?: string;
  label?: string;
  style?: number;
  url?: string;
  disabled?: boolean;
  emoji?: { name?: string; id?: string };
  placeholder?: string;
  options?: ApiSelectOption[];
  min_values?: number;
  max_values?: number;
  min_length?: number;
  max_length?: number;
  required?: boolean;
  value?: string;
  content?: string;
  description?: string;
  components?: ApiComponent[];
  component?: ApiComponent;
  accessory?: ApiComponent;
  [key: string]: unknown;
}

export interface ApiAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
  description?: string;
}

/** Message-ish body accepted by create/edit routes and interaction callbacks (types 4 and 7). */
export interface MessagePayload {
  content?: string | null;
  embeds?: ApiEmbed[] | null;
  components?: ApiComponent[] | null;
  flags?: number | null;
  attachments?: { id: string | number; filename?: string | null; description?: string | null }[] | null;
  allowed_mentions?: unknown;
  message_reference?: { message_id?: string; channel_id?: string; guild_id?: string } | null;
  tts?: boolean;
  nonce?: string | number;
  sticker_ids?: string[];
  poll?: unknown;
}

export interface ApiCommandOptionChoice {
  name: string;
  name_localizations?: Record<string, string> | null;
  value: string | number;
}

export interface ApiCommandOption {
  type: number;
  name: string;
  name_localizations?: Record<string, string> | null;
  description: string;
  description_localizations?: Record<string, string> | null;
  required?: boolean;
  choices?: ApiCommandOptionChoice[];
  options?: ApiCommandOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
}

/** A registered application command as Discord returns it. */
export interface ApiCommand {
  id: string;
  application_id: string;
  guild_id?: string;
  version: string;
  type: number;
  name: string;
  name_localizations: Record<string, string> | null;
  description: string;
  description_localizations: Record<string, string> | null;
  options?: ApiCommandOption[];
  default_member_permissions: string | null;
  dm_permission?: boolean;
  contexts?: number[] | null;
  integration_types?: number[];
  nsfw: boolean;
}

// ---------------------------------------------------------------------------------------------
// World records

export interface SandboxUser {
  id: string;
  username: string;
  globalName: string | null;
  /** The client language Discord reports as `interaction.locale`. */
  locale: string;
  bot: boolean;
  /** "Allow direct messages from server members" switched off: DMs from the bot fail with 50007. */
  dmsClosed: boolean;
}

export interface SandboxRole {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  color: number;
  managed: boolean;
}

export interface SandboxMember {
  guildId: string;
  userId: string;
  nick: string | null;
  roleIds: string[];
  joinedAt: number;
}

export interface PermissionOverwrite {
  /** Role or user id. */
  id: string;
  /** 0 = role, 1 = member. */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface SandboxChannel {
  id: string;
  type: number;
  guildId: string | null;
  name: string | null;
  topic: string | null;
  parentId: string | null;
  position: number;
  overwrites: PermissionOverwrite[];
  /** DM channels: the human on the other side. */
  recipientId: string | null;
  /** Threads: who started it and whether it is archived. */
  ownerId: string | null;
  archived: boolean;
  autoArchiveDuration: number;
  createdAt: number;
  lastMessageId: string | null;
  deleted: boolean;
}

export interface SandboxGuild {
  id: string;
  name: string;
  ownerId: string;
  preferredLocale: string;
  botRoleId: string;
  createdAt: number;
  /** An outage: Discord sent GUILD_DELETE with `unavailable: true` and holds the guild back on connect. */
  unavailable: boolean;
}

/** One state of a message; `edits` keeps every earlier state. */
export interface MessageRevision {
  at: number;
  content: string;
  embeds: ApiEmbed[];
  components: ApiComponent[];
  flags: number;
}

export interface SandboxMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  /** Present when the message came from an interaction response or follow-up (webhook author). */
  webhookId: string | null;
  interactionId: string | null;
  type: number;
  content: string;
  embeds: ApiEmbed[];
  components: ApiComponent[];
  attachments: (ApiAttachment & { data: Buffer })[];
  flags: number;
  /** True for ephemeral interaction messages: only `visibleTo` sees them. */
  ephemeral: boolean;
  visibleTo: string | null;
  /** A deferred reply that has not been edited yet ("Bot is thinking..."). */
  loading: boolean;
  messageReference: { message_id?: string; channel_id?: string; guild_id?: string } | null;
  createdAt: number;
  editedAt: number | null;
  /** Earlier states, oldest first (the current state is the message itself). */
  edits: MessageRevision[];
  deleted: boolean;
  /** Thread started from this message, if any. */
  threadId: string | null;
  /** The `nonce` the message was created with (echoed back like Discord does), if any. */
  nonce?: string | number;
  /** Emoji (name or name:id) the bot reacted with. */
  reactions: string[];
}

/** A guild scheduled event (resources/guild-scheduled-event.mdx); times in epoch ms of the sandbox clock. */
export interface SandboxScheduledEvent {
  id: string;
  guildId: string;
  /** Null for EXTERNAL events. */
  channelId: string | null;
  /** The bot's user id for events it made; a human's for events made in the client. */
  creatorId: string;
  name: string;
  description: string | null;
  startAt: number;
  endAt: number | null;
  privacyLevel: number;
  /** 1 SCHEDULED, 2 ACTIVE, 3 COMPLETED, 4 CANCELED. */
  status: number;
  entityType: number;
  /** `entity_metadata.location` (EXTERNAL only). */
  location: string | null;
}
