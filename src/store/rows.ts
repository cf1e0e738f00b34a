/**
 * Rows as SQLite gives them (snake_case columns) turned into the camelCase objects the rest of the
 * program uses. The tables' columns and our property names differ only in that spelling, so one
 * rule serves every table; each reader still narrows what SQLite cannot type (enumerations, flags).
 * Both databases have the same tables (a test checks it), so the row shapes below serve both.
 */
import type {
  CupRow,
  FeedSettingsRow,
  GatewayState,
  GuildSettingsUpdate,
  Heartbeat,
  LedgerRow,
  LedgerState,
  LinkRequest,
  LiveMatchHow,
  LiveRaceRow,
  LiveSnapshotRow,
  NotifyPause,
  SeasonEventRow,
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

/** Each column's camelCase name, made once: the tables have a few dozen columns, and some rows are read on every turn. */
const camelNames = new Map<string, string>();

function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/** A row with every column renamed to camelCase and its value kept as it is. */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[camelName(column)] = value;
  return out as CamelCased<Row>;
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
  'season_events',
  'season_scans',
  'cups',
  'live_races',
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
  live: number;
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
    live: r.live === 1,
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

export interface HeartbeatRow {
  process: string;
  shard_count: number;
  shards: string;
  pid: number;
  host: string;
  started_at: string;
  beat_at: string;
  stopped_at: string | null;
  gateway: string;
  gateway_since: string;
  feeds_at: string | null;
  eventor_ok_at: string | null;
  eventor_failed_at: string | null;
  discord_ok_at: string | null;
  discord_failed_at: string | null;
}

/** The heartbeats table's columns, in the order `heartbeatValues` gives their values. */
export const HEARTBEAT_COLUMNS = [
  'process',
  'shard_count',
  'shards',
  'pid',
  'host',
  'started_at',
  'beat_at',
  'stopped_at',
  'gateway',
  'gateway_since',
  'feeds_at',
  'eventor_ok_at',
  'eventor_failed_at',
  'discord_ok_at',
  'discord_failed_at',
] as const satisfies ReadonlyArray<keyof HeartbeatRow>;

export function heartbeatValues(h: Heartbeat): Array<string | number | null> {
  return [
    h.process,
    h.shardCount,
    h.shards,
    h.pid,
    h.host,
    h.startedAt,
    h.beatAt,
    h.stoppedAt,
    h.gateway,
    h.gatewaySince,
    h.feedsRanAt,
    h.eventorOkAt,
    h.eventorFailedAt,
    h.discordOkAt,
    h.discordFailedAt,
  ];
}

const GATEWAY_STATES: readonly string[] = ['ready', 'connecting', 'disconnected'] satisfies GatewayState[];

export function heartbeatFromRow(r: HeartbeatRow): Heartbeat {
  return {
    process: r.process,
    shardCount: Number(r.shard_count),
    shards: r.shards,
    pid: Number(r.pid),
    host: r.host,
    startedAt: r.started_at,
    beatAt: r.beat_at,
    stoppedAt: r.stopped_at,
    // A state a newer version wrote reads as not ready: health then says so rather than failing.
    gateway: GATEWAY_STATES.includes(r.gateway) ? (r.gateway as GatewayState) : 'disconnected',
    gatewaySince: r.gateway_since,
    feedsRanAt: r.feeds_at,
    eventorOkAt: r.eventor_ok_at,
    eventorFailedAt: r.eventor_failed_at,
    discordOkAt: r.discord_ok_at,
    discordFailedAt: r.discord_failed_at,
  };
}

export interface SeasonEventTableRow {
  event_id: string;
  first_day: string;
  event: string;
  races: string | null;
  fetched_at: string | null;
  settled: number;
}

export function seasonEventOf(r: SeasonEventTableRow): SeasonEventRow {
  return { ...camelCased(r), settled: r.settled === 1 };
}

export interface CupTableRow {
  /** PostgreSQL's driver gives a bigint as a string. */
  id: number | string;
  guild_id: string;
  name: string;
  rules: string;
  post_standings: number;
  created_at: string;
  updated_at: string;
}

export function cupOf(r: CupTableRow): CupRow {
  return { ...camelCased(r), id: Number(r.id), postStandings: r.post_standings === 1 };
}

export interface LiveRaceTableRow {
  guild_id: string;
  event_id: string;
  race_id: string;
  race_day: string;
  race: string;
  competition_id: number | string | null;
  how: string;
  candidates: string;
  final_at: string | null;
  results_url: string | null;
  updated_at: string;
}

export function liveRaceOf(r: LiveRaceTableRow): LiveRaceRow {
  return {
    ...camelCased(r),
    // PostgreSQL's driver gives integers as they are; a bigint would come as text.
    competitionId: r.competition_id === null ? null : Number(r.competition_id),
    how: r.how as LiveMatchHow,
  };
}

export interface LiveSnapshotTableRow {
  competition_id: string;
  state: string;
  read_at: string;
  changed_at: string | null;
}

export function liveSnapshotOf(r: LiveSnapshotTableRow): LiveSnapshotRow {
  return { ...camelCased(r), competitionId: Number(r.competition_id) };
}
