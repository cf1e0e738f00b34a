/**
 * Rows as SQLite gives them (snake_case columns) turned into the camelCase objects the rest of the
 * program uses. The tables' columns and our property names differ only in that spelling, so one
 * rule serves every table; each reader still narrows what SQLite cannot type (enumerations, flags).
 * Both databases have the same tables (a test checks it), so the row shapes below serve both.
 */
import type {
  FeedSettingsRow,
  GuildSettingsUpdate,
  LedgerRow,
  LedgerState,
  LinkRequest,
  NotifyPause,
  Subscription,
} from './interfaces.js';

/** A snake_case column name as a camelCase property name: `guild_id` → `guildId`. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/** A row type with its columns renamed to camelCase, each value's type kept. */
export type CamelCased<Row> = {
  [Column in keyof Row as Column extends string ? CamelCase<Column> : Column]: Row[Column];
};

/** A row with every column renamed to camelCase and its value kept as it is. */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  ) as CamelCased<Row>;
}

// --- the tables' rows, the same in both databases, and the objects callers get from them ---

/** Every table with a server's data (`guild_id`), settings last: what forgetting a server deletes. */
export const GUILD_TABLES = [
  'guild_channels',
  'member_links',
  'link_requests',
  'link_settings',
  'audit_log',
  'posted_items',
  'post_claims',
  'feed_state',
  'feed_settings',
  'notify_subscriptions',
  'guild_settings',
] as const;

export interface GuildRow {
  guild_id: string;
  eventor_instance: string | null;
  eventor_base_url: string | null;
  api_key_sealed: string | null;
  organisation_id: string | null;
  organisation_name: string | null;
  locale: string | null;
  time_zone: string | null;
  updated_at: string;
}

/** The column of each setting `updateGuildSettings` may change. */
export const GUILD_SETTINGS_COLUMNS: Record<keyof GuildSettingsUpdate, string> = {
  eventorInstance: 'eventor_instance',
  eventorBaseUrl: 'eventor_base_url',
  organisationId: 'organisation_id',
  organisationName: 'organisation_name',
  locale: 'locale',
  timeZone: 'time_zone',
};

export interface SubscriptionRow {
  guild_id: string;
  user_id: string;
  starts: number;
  results: number;
  tomorrow: number;
  locale: string;
  dm_channel_id: string | null;
  paused_reason: string | null;
  paused_at: string | null;
  created_at: string;
  updated_at: string;
}

export function subscriptionOf(r: SubscriptionRow): Subscription {
  return {
    ...camelCased(r),
    starts: r.starts === 1,
    results: r.results === 1,
    tomorrow: r.tomorrow === 1,
    pausedReason: r.paused_reason as NotifyPause | null,
  };
}

export interface FeedSettingsTableRow {
  enabled: number;
  paused_reason: string | null;
  paused_at: string | null;
  role_id: string | null;
  options: string;
}

export function feedSettingsOf(r: FeedSettingsTableRow): FeedSettingsRow {
  return {
    enabled: r.enabled === 1,
    pausedReason: r.paused_reason,
    pausedAt: r.paused_at,
    roleId: r.role_id,
    options: r.options,
  };
}

export interface PostedItemRow {
  guild_id: string;
  feed: string;
  item_key: string;
  content_hash: string;
  channel_id: string;
  message_id: string | null;
  state: string;
  nonce: string | null;
  pending_payload: string | null;
  created_at: string;
  updated_at: string;
}

export function ledgerRowOf(r: PostedItemRow): LedgerRow {
  return { ...camelCased(r), state: r.state as LedgerState };
}

export interface LinkRequestRow {
  /** PostgreSQL's driver gives a bigint as a string. */
  id: number | string;
  guild_id: string;
  user_id: string;
  person_id: string;
  locale: string;
  state: string;
  decided_by: string | null;
  created_at: string;
  decided_at: string | null;
}

export function linkRequestOf(r: LinkRequestRow): LinkRequest {
  return { ...camelCased(r), id: Number(r.id), state: r.state as LinkRequest['state'] };
}
