/**
 * The poster: puts one feed item in its channel exactly once, and keeps it up to date by editing.
 *
 * Design (exactly once across crashes and restarts):
 * 1. Before anything is sent, the ledger records the intent: state `posting` with a fresh random
 *    nonce and the hash of the content (one SQLite write, durable before the Discord call).
 * 2. The message is sent with Discord's `nonce` + `enforce_nonce: true` (Discord drops a second
 *    message with the same nonce in the same channel for a few minutes) and carries a marker made
 *    from the nonce, in zero-width characters members do not see (`hiddenMarker`).
 * 3. After Discord answers, the ledger records `posted` with the message id.
 * A crash between 1 and 3 leaves the row in `posting`. The next run, before sending again, reads the
 * channel back page by page to the intent's time (at most 2,000 messages): if a message of the bot
 * carries the nonce, it is recorded as the post (no
 * second message); if none does, the message was never made and is sent now, with the same nonce.
 * So a post is neither lost (the row stays `posting` until a message is recorded) nor doubled (the
 * marker is looked for before every resend, and Discord's nonce covers a resend racing a slow answer).
 * Edits: when an item's content hash differs from the recorded one, the recorded message is edited
 * and then the new hash recorded (a crash in between only repeats an idempotent edit). If the
 * message was deleted (10008 Unknown Message) the item is posted anew through steps 1-3, once.
 * The intent also records the message itself (`pending_payload`), so a post no later run recomputes
 * (a summary standing in for a burst, recorded in one transaction with the items it covers) is
 * still finished after a crash: `finishUnfinished` runs steps 2-3 for it from the ledger.
 * Two processes on one database (two `tick`s, a cron `tick` beside `start`): each item is claimed
 * in the database (`Ledger.claim`, a lease) before any of this, and the row read under the claim,
 * so only one of them posts or edits it; the other answers `busy` and leaves it.
 * Discord refusing the channel (403, Missing Access/Permissions, Unknown Channel, an archived thread) gives `paused`
 * and records nothing as posted; other failures give `failed` for the scheduler to retry later.
 * Pictures (`payload.pictures`) go as files with the message; an item may make its final payload
 * only when it is sent (`FeedItem.complete`: drawing costs), and the intent records it with the
 * pictures' bytes (docs/decisions/exactly-once-ledger.md#pictures). A message or edit with pictures
 * refused for want of Attach Files is sent again without them (`picturesRefused`), so the text still
 * gets out and the feed does not pause.
 */
import { randomBytes } from 'node:crypto';
import { type APIChannel, type APIEmbed, type APIMessage, type Client, DiscordAPIError, Routes } from 'discord.js';
import { DISCORD_LIMITS, embedLength, type MessagePayload, type PayloadFile } from '../../render/index.js';
import type { ItemRef, Ledger } from './ledger.js';

/** What the poster needs from Discord; `discordTarget` is the real one. */
export interface PostTarget {
  /** Sends a message; the message id. */
  send(channelId: string, payload: MessagePayload, nonce: string): Promise<string>;
  edit(channelId: string, messageId: string, payload: MessagePayload): Promise<void>;
  /**
   * One page of the channel's messages, newest first (at most `limit`, Discord allows 100), older
   * than the message `before` when given: each with whether the bot wrote it, its texts and when
   * Discord made it.
   */
  history(channelId: string, options: { limit: number; before?: string }): Promise<HistoryMessage[]>;
  /**
   * Opens a public thread on a message; the thread's id (a thread started from a message has the
   * message's id), and whether it was made now or already existed (Discord's 160004). Optional:
   * targets without it get no threads.
   */
  startThread?(
    channelId: string,
    messageId: string,
    options: { name: string; autoArchiveMinutes: number },
  ): Promise<{ threadId: string; created: boolean }>;
}

export interface HistoryMessage {
  id: string;
  /** Written by the bot itself (only its messages can carry a marker). */
  mine: boolean;
  texts: string[];
  /** ISO 8601, as Discord's `timestamp`. */
  createdAt: string;
}

/** Discord's "A thread has already been created for this message". */
const THREAD_ALREADY_CREATED = 160004;

export interface FeedItem extends ItemRef {
  channelId: string;
  payload: MessagePayload;
  contentHash: string;
  /**
   * The payload as sent, made only when it is sent or edited (pictures are drawn then, ~100 ms
   * each: an unchanged item never draws). `payload` is what it falls back to when this fails, and
   * `contentHash` must already tell its changes apart (hash what the pictures are drawn from).
   */
  complete?: () => Promise<MessagePayload>;
  /** A `seeded` item whose content changes is posted then (e.g. results of a race under way when the feed was turned on). */
  followSeeded?: boolean;
}

/** `picturesRefused`: Discord refused the pictures (no Attach Files), the message went without them. */
export type PostOutcome =
  | { kind: 'posted'; messageId: string; picturesRefused?: true }
  | { kind: 'recovered'; messageId: string }
  | { kind: 'edited'; messageId: string; picturesRefused?: true }
  | { kind: 'reposted'; messageId: string; picturesRefused?: true }
  | { kind: 'unchanged' }
  /** Another process (or poster) holds the claim on the item and is posting or editing it now. */
  | { kind: 'busy' }
  | { kind: 'seeded' }
  | { kind: 'paused'; reason: 'forbidden' | 'channel-gone'; code: number | string | null }
  | { kind: 'failed'; error: unknown };

export interface PosterHooks {
  /** Called after Discord created the message and before the ledger records it (tests crash here). */
  afterSend?: (item: FeedItem, messageId: string) => void;
}

/** Discord's largest page of channel messages. */
const HISTORY_PAGE = 100;
/**
 * How far recovery reads back at most: 20 pages of 100 messages. It stops sooner, at the first
 * message older than the intent (minus CLOCK_SKEW_MS): the marked message cannot be older.
 */
const HISTORY_PAGES = 20;
/** Our clock and Discord's may differ a little: messages up to this much older than the intent are still read. */
const CLOCK_SKEW_MS = 5 * 60_000;
const UNKNOWN_MESSAGE = 10008;
const UNKNOWN_CHANNEL = 10003;
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;
/** Editing a message in a thread a moderator archived: refused until someone unarchives it. */
const THREAD_ARCHIVED = 50083;

export function newNonce(): string {
  // Discord accepts nonces up to 25 characters.
  return `eb${randomBytes(9).toString('base64url')}`;
}

/**
 * The visible marker earlier versions wrote: the nonce's first ten characters ("eb" and 48 random
 * bits) at the foot of the post, or `ref <whole nonce>` before that. Recovery still looks for it, so
 * a post such a version began is found after an upgrade.
 */
export function markerText(nonce: string): string {
  return nonce.slice(0, 10);
}

/**
 * Zero-width characters, one base-4 digit each: the marker members do not see. Discord keeps them
 * in text as sent (the bot's defused `@\u200beveryone` relies on it); none is whitespace, so no trim
 * takes them off (docs/decisions/exactly-once-ledger.md#the-marker).
 */
const MARKER_DIGITS = ['\u200b', '\u200c', '\u200d', '\u2060'] as const;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The 48 random bits of the marker as 24 base-4 digits. */
const HIDDEN_LENGTH = 24;
const HIDDEN = new RegExp(`(?:${MARKER_DIGITS.join('|')}){${HIDDEN_LENGTH}}`);

/**
 * The marker of a post, written into it and looked for on recovery (one function for both): the
 * random part of `markerText` spelt in zero-width characters, so members see nothing.
 */
export function hiddenMarker(nonce: string): string {
  let digits = '';
  for (const char of markerText(nonce).slice(2)) {
    const value = Math.max(0, BASE64URL.indexOf(char));
    digits += MARKER_DIGITS[(value >> 4) & 3]! + MARKER_DIGITS[(value >> 2) & 3]! + MARKER_DIGITS[value & 3]!;
  }
  return digits;
}

/** The marker a text carries (`eb` and 8 characters), hidden or, from earlier versions, visible; null if none. */
export function markerIn(text: string): string | null {
  const hidden = HIDDEN.exec(text)?.[0];
  if (hidden) {
    let chars = 'eb';
    for (let i = 0; i < HIDDEN_LENGTH; i += 3) {
      const [a, b, c] = [...hidden.slice(i, i + 3)].map((d) =>
        MARKER_DIGITS.indexOf(d as (typeof MARKER_DIGITS)[number]),
      );
      chars += BASE64URL[(a! << 4) | (b! << 2) | c!];
    }
    return chars;
  }
  return /\b(eb[\w-]{8})[\w-]*\s*$/.exec(text.split('\n').at(-1) ?? '')?.[1] ?? null;
}

/**
 * The payload with the nonce's hidden marker: after the last embed's footer or, without one, its
 * title (plain text, which Discord turns into no link), else at the end of the content.
 */
function withMarker(payload: MessagePayload, nonce: string): MessagePayload {
  const marker = hiddenMarker(nonce);
  const embeds = payload.embeds ?? [];
  const last = embeds.at(-1);
  if (last) {
    const others = embeds.slice(0, -1).reduce((sum, e) => sum + embedLength(e), 0);
    const fits = (grown: APIEmbed): boolean => others + embedLength(grown) <= DISCORD_LIMITS.embedTotal;
    const footer = last.footer?.text;
    if (footer && footer.length + marker.length <= DISCORD_LIMITS.footer) {
      const grown: APIEmbed = { ...last, footer: { ...last.footer, text: `${footer}${marker}` } };
      if (fits(grown)) return { ...payload, embeds: [...embeds.slice(0, -1), grown] };
    }
    if (last.title && last.title.length + marker.length <= DISCORD_LIMITS.embedTitle) {
      const grown: APIEmbed = { ...last, title: `${last.title}${marker}` };
      if (fits(grown)) return { ...payload, embeds: [...embeds.slice(0, -1), grown] };
    }
  }
  // After a space in the content, so that a link the content ends with stays whole.
  const content = payload.content ?? '';
  const spaced = ` ${marker}`;
  return {
    ...payload,
    content:
      content.length + spaced.length <= DISCORD_LIMITS.content
        ? `${content}${spaced}`
        : `${content.slice(0, DISCORD_LIMITS.content - spaced.length)}${spaced}`,
  };
}

function messageTexts(message: APIMessage): string[] {
  return [message.content, ...message.embeds.flatMap((e) => [e.footer?.text ?? '', e.title ?? ''])].filter(
    (text) => text !== '',
  );
}

/** A payload as Discord's REST API spells it: `allowed_mentions`, which it would otherwise ignore; pictures apart. */
export function restBody(payload: MessagePayload): Record<string, unknown> {
  const { allowedMentions, ...rest } = payload;
  const body: Record<string, unknown> = { ...rest, allowed_mentions: allowedMentions };
  delete body['pictures'];
  return body;
}

/**
 * A payload as a REST request, its pictures as discord.js sends files: parts `files[n]` and
 * `attachments` entries with id `n` and the alt text (docs/discord.md#attachments). On an edit,
 * `attachments` lists only the new files, so the message's earlier ones go; `pictures: []` removes
 * them all; no `pictures` leaves them as they are.
 */
export function restRequest(payload: MessagePayload): {
  body: Record<string, unknown>;
  files?: Array<{ name: string; data: Buffer }>;
} {
  const body = restBody(payload);
  if (payload.pictures === undefined) return { body };
  body['attachments'] = payload.pictures.map((p, i) => ({ id: String(i), description: p.description }));
  if (payload.pictures.length === 0) return { body };
  return { body, files: payload.pictures.map((p) => ({ name: p.name, data: Buffer.from(p.data) })) };
}

/**
 * A REST request's options, a multipart body made here when there are files: discord.js's own
 * FormData goes through whichever undici set the process's global dispatcher first, and undici 7
 * (the Eventor client's) cannot send @discordjs/rest's form ("action is not a function"), so the
 * body is bytes both understand. The parts are the ones discord.js makes (docs/discord.md#attachments).
 */
function restOptions(request: { body: Record<string, unknown>; files?: Array<{ name: string; data: Buffer }> }): {
  body: unknown;
  passThroughBody?: true;
  headers?: Record<string, string>;
} {
  if (!request.files) return { body: request.body };
  const boundary = `----eventor-bot-${randomBytes(12).toString('hex')}`;
  const quoted = (text: string): string => text.replace(/["\r\n]/g, '_');
  const parts: Buffer[] = [];
  request.files.forEach((file, i) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[${i}]"; filename="${quoted(file.name)}"\r\n` +
          `Content-Type: ${contentTypeOf(file.name)}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  });
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n` +
        `${JSON.stringify(request.body)}\r\n--${boundary}--\r\n`,
    ),
  );
  return {
    body: Buffer.concat(parts),
    passThroughBody: true,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
  };
}

function contentTypeOf(name: string): string {
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}

/** The same payload without its pictures: the files, and embed images that showed them. */
export function withoutPictures(payload: MessagePayload): MessagePayload {
  if (payload.pictures === undefined) return payload;
  const shown = (url: string | undefined): boolean => url?.startsWith('attachment://') ?? false;
  const embeds = payload.embeds?.map((embed) => {
    const out = { ...embed };
    if (shown(out.image?.url)) delete out.image;
    if (shown(out.thumbnail?.url)) delete out.thumbnail;
    return out;
  });
  const rest = { ...payload, ...(embeds ? { embeds } : {}) };
  delete rest.pictures;
  return rest;
}

/** A payload as JSON for the ledger's intent, the pictures' bytes in base64 (`payloadFromJson` reads it back). */
export function payloadToJson(payload: MessagePayload): string {
  if (payload.pictures === undefined) return JSON.stringify(payload);
  const pictures = payload.pictures.map((p) => ({
    name: p.name,
    description: p.description,
    base64: Buffer.from(p.data).toString('base64'),
  }));
  return JSON.stringify({ ...payload, pictures });
}

export function payloadFromJson(json: string): MessagePayload {
  const parsed = JSON.parse(json) as Omit<MessagePayload, 'pictures'> & {
    pictures?: Array<{ name: string; description: string; base64: string }>;
  };
  const { pictures: stored, ...rest } = parsed;
  if (stored === undefined) return rest;
  const pictures: PayloadFile[] = stored.map((p) => ({
    name: p.name,
    description: p.description,
    data: new Uint8Array(Buffer.from(p.base64, 'base64')),
  }));
  return { ...rest, pictures };
}

/** The real Discord, through discord.js's REST client (rate limits and retries included). */
export function discordTarget(client: Client): PostTarget {
  return {
    async send(channelId, payload, nonce) {
      const request = restRequest(payload);
      const message = (await client.rest.post(
        Routes.channelMessages(channelId),
        restOptions({ ...request, body: { ...request.body, nonce, enforce_nonce: true } }),
      )) as APIMessage;
      return message.id;
    },
    async edit(channelId, messageId, payload) {
      await client.rest.patch(Routes.channelMessage(channelId, messageId), restOptions(restRequest(payload)));
    },
    async history(channelId, options) {
      const query = new URLSearchParams({ limit: String(options.limit) });
      if (options.before) query.set('before', options.before);
      const messages = (await client.rest.get(Routes.channelMessages(channelId), { query })) as APIMessage[];
      const me = client.user?.id;
      return messages.map((m) => ({
        id: m.id,
        mine: m.author.id === me,
        texts: messageTexts(m),
        createdAt: m.timestamp,
      }));
    },
    async startThread(channelId, messageId, options) {
      try {
        const thread = (await client.rest.post(Routes.threads(channelId, messageId), {
          body: { name: options.name, auto_archive_duration: options.autoArchiveMinutes },
        })) as APIChannel;
        return { threadId: thread.id, created: true };
      } catch (error) {
        // Made before (a crash before it was recorded): its id is the message's.
        if (error instanceof DiscordAPIError && error.code === THREAD_ALREADY_CREATED)
          return { threadId: messageId, created: false };
        throw error;
      }
    },
  };
}

export type Refusal =
  { kind: 'unknown-message' } | { kind: 'paused'; reason: 'forbidden' | 'channel-gone'; code: number | string | null };

/** What a Discord refusal means for a post: the message is gone, or the channel refuses (pause). */
export function classifyRefusal(error: unknown): Refusal | null {
  if (!(error instanceof DiscordAPIError)) return null;
  if (error.code === UNKNOWN_MESSAGE) return { kind: 'unknown-message' };
  if (error.code === UNKNOWN_CHANNEL) return { kind: 'paused', reason: 'channel-gone', code: error.code };
  if (
    error.status === 403 ||
    error.code === MISSING_ACCESS ||
    error.code === MISSING_PERMISSIONS ||
    error.code === THREAD_ARCHIVED
  )
    return { kind: 'paused', reason: 'forbidden', code: error.code };
  return null;
}

/** Whether Discord refused a payload with pictures for want of a permission (Attach Files, most likely). */
function refusedPictures(error: unknown, payload: MessagePayload): boolean {
  if ((payload.pictures?.length ?? 0) === 0 || !(error instanceof DiscordAPIError)) return false;
  return error.code === MISSING_PERMISSIONS;
}

/** The item's payload as sent: made now when it makes it late; its plain payload if that fails. */
async function completed(item: FeedItem): Promise<MessagePayload> {
  if (!item.complete) return item.payload;
  try {
    return await item.complete();
  } catch {
    return item.payload;
  }
}

function refusalOutcome(error: unknown): PostOutcome {
  const refusal = classifyRefusal(error);
  if (refusal?.kind === 'paused') return refusal;
  return { kind: 'failed', error };
}

export class Poster {
  readonly #ledger: Ledger;
  readonly #target: PostTarget;
  readonly #hooks: PosterHooks;

  constructor(ledger: Ledger, target: PostTarget, hooks: PosterHooks = {}) {
    this.#ledger = ledger;
    this.#target = target;
    this.#hooks = hooks;
  }

  /**
   * Posts the item if new, recovers an interrupted post, edits it if its content changed. Under a
   * claim in the database: while another process holds the item, nothing is sent (`busy`); the
   * ledger row is read only once the claim is ours, so what another process finished is seen.
   * An item the ledger already holds as it is (most items of most runs) needs no work, so no claim:
   * a claim is two writes, and the scheduler publishes every item of every server on every run.
   */
  async publish(item: FeedItem): Promise<PostOutcome> {
    const row = await this.#ledger.get(item);
    if (row !== null && row.contentHash === item.contentHash) {
      if (row.state === 'seeded') return { kind: 'seeded' };
      if (row.state === 'posted') return { kind: 'unchanged' };
    }
    return this.#claimed(item, () => this.#publishClaimed(item));
  }

  async #claimed(item: FeedItem, work: () => Promise<PostOutcome>): Promise<PostOutcome> {
    if (!(await this.#ledger.claim(item))) return { kind: 'busy' };
    try {
      return await work();
    } finally {
      await this.#ledger.release(item);
    }
  }

  async #publishClaimed(item: FeedItem): Promise<PostOutcome> {
    const row = await this.#ledger.get(item);
    if (!row) return this.#post(item, newNonce(), 'posted');
    if (row.state === 'seeded') {
      if (row.contentHash === item.contentHash) return { kind: 'seeded' };
      if (item.followSeeded) return this.#post(item, newNonce(), 'posted');
      await this.#ledger.updateHash(item, item.contentHash);
      return { kind: 'seeded' };
    }
    if (row.state === 'posting') {
      const nonce = row.nonce ?? newNonce();
      let found: string | null;
      try {
        found = await this.#find(row.channelId, nonce, row.updatedAt);
      } catch (error) {
        // Begun in a channel since deleted (or closed to the bot), and the feed posts elsewhere now.
        if (this.#movedFromGone(error, row.channelId, item)) return this.#post(item, newNonce(), 'posted');
        return refusalOutcome(error);
      }
      if (found === null) return this.#post(item, nonce, 'posted');
      await this.#ledger.posted(item, found, row.contentHash);
      if (row.contentHash === item.contentHash) return { kind: 'recovered', messageId: found };
      return this.#edit(item, row.channelId, found, nonce);
    }
    if (row.contentHash === item.contentHash) return { kind: 'unchanged' };
    return this.#edit(item, row.channelId, row.messageId!, row.nonce);
  }

  /**
   * Posts one message standing in for several items (a summary instead of a burst): the items are
   * recorded as accounted for in the same transaction as the intent to post the summary, and a
   * crash before Discord's answer is recorded is finished by `finishUnfinished`.
   */
  async publishCovering(
    item: FeedItem,
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }>,
  ): Promise<PostOutcome> {
    return this.#claimed(item, async () => {
      if (await this.#ledger.get(item)) return this.#publishClaimed(item);
      return this.#post(item, newNonce(), 'posted', covers);
    });
  }

  /**
   * Finishes posts begun on an earlier run that this run does not publish again (a summary, an item
   * gone from Eventor's answer): from the message recorded with the intent.
   */
  async finishUnfinished(
    guildId: string,
    feed: string,
    publishing: ReadonlySet<string>,
    currentChannelId?: string,
  ): Promise<Array<{ itemKey: string; outcome: PostOutcome }>> {
    const outcomes: Array<{ itemKey: string; outcome: PostOutcome }> = [];
    for (const row of await this.#ledger.unfinished(guildId, feed)) {
      if (publishing.has(row.itemKey) || row.pendingPayload === null) continue;
      let payload: MessagePayload;
      try {
        payload = payloadFromJson(row.pendingPayload);
      } catch {
        continue;
      }
      // `currentChannelId`: the feed's channel now (a post begun in a channel since deleted goes there).
      const outcome = await this.publish({
        guildId,
        feed,
        itemKey: row.itemKey,
        channelId: currentChannelId ?? row.channelId,
        payload,
        contentHash: row.contentHash,
      });
      outcomes.push({ itemKey: row.itemKey, outcome });
      if (outcome.kind === 'paused') break;
    }
    return outcomes;
  }

  /**
   * The bot's message carrying the nonce's marker, read back page by page from the newest message
   * to the intent's time (`intendedAt`; bounded by HISTORY_PAGES): null when it is not there.
   */
  async #find(channelId: string, nonce: string, intendedAt: string): Promise<string | null> {
    const hidden = hiddenMarker(nonce);
    // Posts begun by an earlier version carry the visible marker instead.
    const visible = markerText(nonce);
    const oldestPossible = Date.parse(intendedAt) - CLOCK_SKEW_MS;
    let before: string | undefined;
    for (let page = 0; page < HISTORY_PAGES; page++) {
      const messages = await this.#target.history(channelId, { limit: HISTORY_PAGE, ...(before ? { before } : {}) });
      const found = messages.find(
        (m) => m.mine && m.texts.some((text) => text.includes(hidden) || text.includes(visible)),
      );
      if (found) return found.id;
      const oldest = messages.at(-1);
      if (!oldest || messages.length < HISTORY_PAGE || Date.parse(oldest.createdAt) < oldestPossible) return null;
      before = oldest.id;
    }
    return null;
  }

  /**
   * Discord refuses the post's channel (gone: 10003, or closed to the bot: 403), and the item is
   * now for another channel: the feed moved, so the refusal concerns only this old post, not the
   * feed; pausing the feed would loop (its re-check looks at the new channel and resumes it).
   */
  #movedFromGone(error: unknown, postChannelId: string, item: FeedItem): boolean {
    const refusal = classifyRefusal(error);
    return refusal?.kind === 'paused' && postChannelId !== item.channelId;
  }

  async #post(
    item: FeedItem,
    nonce: string,
    kind: 'posted' | 'reposted',
    covers: ReadonlyArray<{ itemKey: string; contentHash: string }> = [],
  ): Promise<PostOutcome> {
    const payload = await completed(item);
    await this.#ledger.intend(item, item.channelId, item.contentHash, nonce, payloadToJson(payload), covers);
    let messageId: string;
    let picturesRefused = false;
    try {
      try {
        messageId = await this.#target.send(item.channelId, withMarker(payload, nonce), nonce);
      } catch (error) {
        if (!refusedPictures(error, payload)) throw error;
        // No Attach Files: the text alone (no message was made, so the same nonce is still free).
        picturesRefused = true;
        messageId = await this.#target.send(item.channelId, withMarker(withoutPictures(payload), nonce), nonce);
      }
    } catch (error) {
      // The row stays `posting`: the next run looks for the marker before sending again.
      return refusalOutcome(error);
    }
    this.#hooks.afterSend?.(item, messageId);
    await this.#ledger.posted(item, messageId, item.contentHash);
    return { kind, messageId, ...(picturesRefused ? { picturesRefused: true as const } : {}) };
  }

  async #edit(item: FeedItem, channelId: string, messageId: string, nonce: string | null): Promise<PostOutcome> {
    const payload = await completed(item);
    const marked = (p: MessagePayload): MessagePayload => (nonce ? withMarker(p, nonce) : p);
    let picturesRefused = false;
    try {
      try {
        await this.#target.edit(channelId, messageId, marked(payload));
      } catch (error) {
        if (!refusedPictures(error, payload)) throw error;
        // No Attach Files: the text alone, and the picture it showed goes (it shows what changed).
        picturesRefused = true;
        await this.#target.edit(channelId, messageId, marked({ ...withoutPictures(payload), pictures: [] }));
      }
    } catch (error) {
      // Deleted by someone: post anew, once (the new row is `posted` with its own message id).
      if (classifyRefusal(error)?.kind === 'unknown-message')
        return this.#post({ ...item, channelId }, newNonce(), 'reposted');
      // Its channel was deleted (or closed to the bot) and the feed has a new one: posted anew there, once (the new row
      // records the new channel, so later edits go there). Pausing instead would loop: the hourly
      // re-check finds the feed's new channel fine and resumes, and the edit fails again.
      if (this.#movedFromGone(error, channelId, item)) return this.#post(item, newNonce(), 'reposted');
      return refusalOutcome(error);
    }
    await this.#ledger.posted(item, messageId, item.contentHash);
    return { kind: 'edited', messageId, ...(picturesRefused ? { picturesRefused: true as const } : {}) };
  }
}
