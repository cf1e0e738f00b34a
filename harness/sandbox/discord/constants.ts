/**
 * Numeric protocol constants of Discord API v10, spelled out here instead of imported from
 * discord-api-types (only a transitive dependency of discord.js) so the sandbox has no hidden
 * dependency and the values are visible where they are used.
 */

/** Permission bits (developers/topics/permissions.mdx). BigInt because the field is 64-bit. */
export const Permission = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewAuditLog: 1n << 7n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  MentionEveryone: 1n << 17n,
  UseExternalEmojis: 1n << 18n,
  ChangeNickname: 1n << 26n,
  ManageRoles: 1n << 28n,
  UseApplicationCommands: 1n << 31n,
  ManageThreads: 1n << 34n,
  CreatePublicThreads: 1n << 35n,
  CreatePrivateThreads: 1n << 36n,
  /** Edit and delete scheduled events made by anyone (permissions.mdx). */
  ManageEvents: 1n << 33n,
  SendMessagesInThreads: 1n << 38n,
  /** Create scheduled events, and edit and delete one's own; bots need it to create since February 2026. */
  CreateEvents: 1n << 44n,
} as const;

/** Every bit Discord currently defines (up to bit 50), granted to owners and administrators. */
export const ALL_PERMISSIONS = (1n << 51n) - 1n;

/** What a fresh server's @everyone role gets by default (roughly Discord's defaults). */
export const DEFAULT_EVERYONE_PERMISSIONS =
  Permission.CreateInstantInvite |
  Permission.AddReactions |
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory |
  Permission.UseExternalEmojis |
  Permission.ChangeNickname |
  Permission.UseApplicationCommands |
  Permission.CreatePublicThreads |
  Permission.SendMessagesInThreads;

/** What the bot's managed role gets unless a test says otherwise: a typical invite link's scope. */
export const DEFAULT_BOT_PERMISSIONS =
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory |
  Permission.CreatePublicThreads |
  Permission.SendMessagesInThreads |
  Permission.UseApplicationCommands;

export const ChannelType = {
  GuildText: 0,
  DM: 1,
  GuildCategory: 4,
  GuildAnnouncement: 5,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
} as const;

export const InteractionType = {
  Ping: 1,
  ApplicationCommand: 2,
  MessageComponent: 3,
  ApplicationCommandAutocomplete: 4,
  ModalSubmit: 5,
} as const;

export const CallbackType = {
  Pong: 1,
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredUpdateMessage: 6,
  UpdateMessage: 7,
  ApplicationCommandAutocompleteResult: 8,
  Modal: 9,
} as const;

export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

export const ComponentType = {
  ActionRow: 1,
  Button: 2,
  StringSelect: 3,
  TextInput: 4,
  UserSelect: 5,
  RoleSelect: 6,
  MentionableSelect: 7,
  ChannelSelect: 8,
  Section: 9,
  TextDisplay: 10,
  Container: 17,
  Label: 18,
} as const;

export const isSelectType = (type: number): boolean =>
  type === ComponentType.StringSelect ||
  type === ComponentType.UserSelect ||
  type === ComponentType.RoleSelect ||
  type === ComponentType.MentionableSelect ||
  type === ComponentType.ChannelSelect;

export const MessageFlag = {
  Ephemeral: 1 << 6,
  Loading: 1 << 7,
  IsComponentsV2: 1 << 15,
} as const;

export const MessageType = {
  Default: 0,
  Reply: 19,
  ChatInputCommand: 20,
} as const;

/** Guild scheduled events (resources/guild-scheduled-event.mdx). */
export const ScheduledEventStatus = { Scheduled: 1, Active: 2, Completed: 3, Canceled: 4 } as const;
export const ScheduledEventEntityType = { StageInstance: 1, Voice: 2, External: 3 } as const;
export const ScheduledEventPrivacyLevel = { GuildOnly: 2 } as const;

/** Gateway opcodes (developers/topics/opcodes-and-status-codes.mdx). */
export const GatewayOp = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

export const GatewayIntent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
  GuildScheduledEvents: 1 << 16,
} as const;

/** JSON error codes (opcodes-and-status-codes.mdx "JSON Error Codes"). */
export const ErrorCode = {
  General: 0,
  UnknownChannel: 10003,
  UnknownGuild: 10004,
  UnknownMember: 10007,
  UnknownMessage: 10008,
  UnknownRole: 10011,
  UnknownUser: 10013,
  UnknownWebhook: 10015,
  UnknownApplicationCommand: 10063,
  UnknownInteraction: 10062,
  UnknownGuildScheduledEvent: 10070,
  MaximumUncompletedScheduledEvents: 30038,
  CannotUpdateFinishedEvent: 180000,
  RequestEntityTooLarge: 40005,
  MaximumAttachments: 30015,
  InteractionAlreadyAcknowledged: 40060,
  MissingAccess: 50001,
  CannotEditOtherUsersMessage: 50005,
  CannotSendEmptyMessage: 50006,
  CannotSendMessagesToThisUser: 50007,
  MissingPermissions: 50013,
  /** Editing a message in an archived thread (sending one unarchives an unlocked thread instead). */
  ThreadArchived: 50083,
  InvalidWebhookToken: 50027,
  InvalidFormBody: 50035,
  FileTooLarge: 50045,
  UploadedFileNotFound: 50146,
  ThreadAlreadyCreatedForMessage: 160004,
} as const;

/** Locales Discord accepts in `*_localizations` and sends as `locale` (developers/reference.mdx "Locales"). */
export const LOCALES: readonly string[] = [
  'id',
  'en-US',
  'en-GB',
  'bg',
  'zh-CN',
  'zh-TW',
  'hr',
  'cs',
  'da',
  'nl',
  'fi',
  'fr',
  'de',
  'el',
  'hi',
  'hu',
  'it',
  'ja',
  'ko',
  'lt',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'ru',
  'es-ES',
  'es-419',
  'sv-SE',
  'th',
  'tr',
  'uk',
  'vi',
];

/** Interaction deadlines (receiving-and-responding.mdx). */
export const INITIAL_RESPONSE_DEADLINE_MS = 3_000;
export const INTERACTION_TOKEN_LIFETIME_MS = 15 * 60_000;

/**
 * `enforce_nonce` (resources/message.mdx, Create Message): "checked for uniqueness in the past few
 * minutes". Discord does not say how many; the sandbox keeps a nonce for 5 minutes, so a bot that
 * relied on it for longer would still be caught by a test that moves the clock further.
 */
export const NONCE_WINDOW_MS = 5 * 60_000;

/** Discord's epoch for snowflakes (2015-01-01T00:00:00Z). */
export const DISCORD_EPOCH = 1_420_070_400_000n;
