/**
 * A kind of automatic post, as admins turn it on in `/feeds`: one folder `kinds/<name>/` whose
 * `index.ts` is this module. It owns everything about the kind: its name, its options (a zod schema
 * of its own fields, with their defaults), its feed (cadence and run: `feed.ts`), its `/feeds test`
 * preview, the Discord permissions it needs, the notices its runs may give, and the part of `/feeds`
 * only it has. The registry (`registry.ts`) lists the kinds; `/feeds`, `/setup channel`, the admin
 * service and the scheduler are built from that list, so adding a kind is a folder and a line there
 * (docs/architecture.md#adding-a-feed-kind).
 */
import type { z } from 'zod';
import type { KeyWithVariables, MessageKey, PlainKey, VarsArgument } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { MessagePayload } from '../render/index.js';
import type { Store, StoreParts } from '../store/interfaces.js';
import type { Ledger } from './delivery/ledger.js';
import type { Permission } from './delivery/post-channels.js';
import type { Feed, FeedNotice, FeedSettings, PreviewContext } from './feed.js';

export type { Permission };

/** One option of a kind's own `/feeds` subcommand, as Discord shows it. */
export type KindCommandOption =
  | {
      type: 'string';
      name: PlainKey;
      description: PlainKey;
      required?: boolean;
      maxLength?: number;
      choices?: ReadonlyArray<{ label: PlainKey; value: string }>;
    }
  | { type: 'boolean'; name: PlainKey; description: PlainKey; required?: boolean };

/** What the admin gave a kind's subcommand: each option's value by its (English) name; null when not given. */
export type KindInput = Readonly<Record<string, string | boolean | null>>;

/** Translating into the admin's language. */
export interface KindTranslator {
  t<K extends MessageKey>(key: K, ...vars: VarsArgument<K>): string;
}

/** What a kind's own part of `/feeds` works with: the server's settings of the kind, and Discord's view of its channel. */
export interface KindAdminContext<Options extends object> extends KindTranslator {
  guildId: string;
  /** The server's time zone (`/setup timezone`). */
  timeZone: string;
  settings(): Promise<FeedSettings<Options>>;
  /** Changes the kind's options in one step (with its `afterChange`); a refused value throws, changing nothing. */
  update(change: Partial<Options>): Promise<FeedSettings<Options>>;
  /** The permissions of `wanted` the bot lacks in the channel (empty: none), or null when the channel is gone. */
  missingIn(channelId: string, wanted: readonly Permission[]): Promise<PlainKey[] | null>;
  /** The ledger: what the kind has posted (its posts' threads still to open, say). */
  ledger: Ledger;
  /** The store, for what a kind keeps of its own besides its settings (the live kind's races of the day): read it only. */
  parts: StoreParts;
  /** The bot's clock. */
  now(): Date;
}

/** A kind's own subcommand of `/feeds` (the reminders' lead times, the results' threads, the digest's day). */
export interface KindSubcommand<Options extends object> {
  name: PlainKey;
  description: PlainKey;
  options: readonly KindCommandOption[];
  /** Applies what the admin gave and says what now holds; a refusal throws a `UserFacingError`. */
  run(input: KindInput, ctx: KindAdminContext<Options>): Promise<string>;
}

/** Where a change to a kind's settings is made: inside the store's transaction that makes it. */
export interface KindChangeContext<Options extends object> {
  guildId: string;
  parts: StoreParts;
  now: Date;
  timeZone: string;
  before: FeedSettings<Options>;
  after: FeedSettings<Options>;
}

/**
 * What `/feeds test` gives a kind's preview: what a run renders with, and the server's own (its id,
 * and what the bot keeps of it, such as the cups whose standings a kind posts).
 */
export interface KindPreviewContext extends PreviewContext {
  guildId: string;
  store: Store;
  log: Logger;
}

/** The words of a kind without a channel (`audience: 'server'`), where `/feeds` says what it does instead. */
export interface ServerKindWords {
  /** `/feeds on`: it is on (`{kind}`). */
  on: KeyWithVariables<'kind'>;
  /** What the bot lacks server-wide (`{permissions}`). */
  missing: KeyWithVariables<'permissions'>;
  /** `/feeds test`: the heading of the preview (nothing is made). */
  preview: PlainKey;
  /** `/feeds role`: there is nothing a role could be mentioned in (`{kind}`). */
  noRole: KeyWithVariables<'kind'>;
  /** `/feeds show`: in place of a channel. */
  noChannel: PlainKey;
  /** `/feeds show`: its permissions (`{value}`), and the words when all are granted. */
  permissions: KeyWithVariables<'value'>;
  permissionsOk: PlainKey;
  /** `/setup show`: under its permissions, where it is turned on instead of a channel. */
  setupHint: PlainKey;
}

export interface FeedKind<Options extends object = object> {
  /** Its name in `/feeds`, the store and the ledger. */
  readonly name: string;
  /** Its name as admins read it (`/feeds`, `/setup channel`), and inside a notice's sentence. */
  readonly label: PlainKey;
  readonly noticeLabel: PlainKey;
  /**
   * Where its posts go: `channel`, a channel of its own (chosen in `/feeds on` or `/setup channel`),
   * or `server`, the server itself (its scheduled events), with the words `/feeds` says instead.
   */
  readonly audience: 'channel' | 'server';
  readonly serverWords?: ServerKindWords;
  /**
   * What `/feeds on` answers for a channel kind (`{kind}`, `{channel}`), when not the default, which
   * says that nothing already out is posted: for a kind whose first run posts what there is.
   */
  readonly onWords?: KeyWithVariables<'kind' | 'channel'>;
  /** Its own options with their defaults: what `/feeds` sets of it. */
  readonly options: z.ZodType<Options>;
  /** What the scheduler runs for it (cadence, fetch, items, deliver). */
  readonly feed: Feed;
  /**
   * The permissions it needs besides posting: in its channel for a channel kind (asked in the
   * invite; the post permissions are every channel kind's), server-wide for a server kind.
   */
  readonly permissions: readonly Permission[];
  /**
   * The notices its runs may give its admins (`FeedRunResult.notice`), and the one for a pause for
   * want of permissions when that is not about a channel (a server kind).
   */
  readonly notices?: { readonly runs?: readonly FeedNotice[]; readonly pausedNoPermission?: FeedNotice };
  /** `/feeds test`: its newest post, or what its next one would look like (a server kind: shown, not made). */
  preview?(ctx: KindPreviewContext, options: Options): Promise<MessagePayload | null>;
  /**
   * Whether it takes part in `/feeds filter`: its options hold `classificationIds` (the levels it
   * follows besides the club's own), with the words it answers with.
   */
  readonly levels?: { done: KeyWithVariables<'levels'>; cleared: PlainKey };
  /** The part of `/feeds` only it has. */
  readonly subcommand?: KindSubcommand<Options>;
  /** Its lines in `/feeds show`, after those every kind has. */
  describe?(settings: FeedSettings<Options>, ctx: KindAdminContext<Options>): Promise<string[]>;
  /**
   * After its settings change (turned on, its options set), in the same transaction: what else must
   * hold from then on (the digest starts from its next time).
   */
  afterChange?(ctx: KindChangeContext<Options>): Promise<void>;
}

/** A kind, typed by its options, for the registry's one list of every kind. */
export function defineKind<Options extends object>(kind: FeedKind<Options>): FeedKind<Options> {
  return kind;
}

/** Options that hold the levels of `/feeds filter`. */
export interface LevelsOptions {
  classificationIds: readonly string[];
}
