import { ATTACHMENT_LIMITS, checkUploads, redescribe, resolveEmbedFiles, storeUploads } from './attachments.js';
import { MessageFlag, MessageType } from './constants.js';
import { apiErrors, type FieldError, invalidFormBody } from './errors.js';
import type { UploadedFile } from './http.js';
import { checkMessagePayload, isEmptyMessage } from './limits.js';
import type { MessagePayload, SandboxChannel, SandboxMessage } from './types.js';
import type { World } from './world.js';

/**
 * Turning request bodies into stored messages, shared by channel routes, interaction callbacks and
 * webhook follow-ups so the same limits and edit semantics apply everywhere.
 */

export interface NewMessageOptions {
  channel: SandboxChannel;
  authorId: string;
  body: unknown;
  files: UploadedFile[];
  baseUrl: string;
  /** Error paths prefix (interaction callbacks nest the message under `data`). */
  prefix?: (string | number)[];
  webhookId?: string | null;
  interactionId?: string | null;
  type?: number;
  /** User who alone sees an ephemeral message; ephemeral iff the body has flag 64 and this is set. */
  ephemeralViewer?: string | null;
  loading?: boolean;
}

function asPayload(body: unknown, prefix: (string | number)[]): MessagePayload {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw invalidFormBody([
      { path: prefix, code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' },
    ]);
  }
  return body as MessagePayload;
}

function validate(payload: MessagePayload, prefix: (string | number)[], fileCount: number): void {
  const errors: FieldError[] = checkMessagePayload(payload, { prefix, fileCount });
  if (errors.length > 0) throw invalidFormBody(errors);
}

/** Validate a create-message body and store the message (dispatching MESSAGE_CREATE). */
export function createMessage(world: World, options: NewMessageOptions): SandboxMessage {
  const prefix = options.prefix ?? [];
  const payload = asPayload(options.body, prefix);
  validate(payload, prefix, options.files.length);
  checkUploads(options.files, payload, prefix);
  if (!options.loading && isEmptyMessage({ ...payload, attachmentCount: options.files.length })) {
    throw apiErrors.emptyMessage();
  }
  const ephemeral = options.ephemeralViewer != null && ((payload.flags ?? 0) & MessageFlag.Ephemeral) !== 0;
  // Only ephemeral/suppress-embeds/components-v2 style flags are settable; keep what was asked plus loading.
  let flags = (payload.flags ?? 0) & ~MessageFlag.Loading;
  if (!ephemeral) flags &= ~MessageFlag.Ephemeral;
  if (options.loading) flags |= MessageFlag.Loading;
  const attachments = storeUploads(() => world.ids.next(), options.channel.id, options.files, payload, options.baseUrl);
  const message: SandboxMessage = {
    id: world.ids.next(),
    channelId: options.channel.id,
    guildId: options.channel.guildId,
    authorId: options.authorId,
    webhookId: options.webhookId ?? null,
    interactionId: options.interactionId ?? null,
    type: options.type ?? (payload.message_reference?.message_id ? MessageType.Reply : MessageType.Default),
    content: payload.content ?? '',
    embeds: resolveEmbedFiles(payload.embeds ?? [], attachments),
    components: payload.components ?? [],
    attachments,
    flags,
    ephemeral,
    visibleTo: ephemeral ? (options.ephemeralViewer ?? null) : null,
    loading: options.loading ?? false,
    messageReference: payload.message_reference ?? null,
    createdAt: world.now(),
    editedAt: null,
    edits: [],
    deleted: false,
    threadId: null,
    reactions: [],
    ...(payload.nonce !== undefined && payload.nonce !== null ? { nonce: payload.nonce } : {}),
  };
  return world.addMessage(message);
}

/**
 * Apply an edit body: only fields present change (Discord's PATCH semantics); `attachments`
 * lists which existing attachments to keep. Ephemerality cannot change after creation.
 */
export function editMessage(
  world: World,
  message: SandboxMessage,
  body: unknown,
  files: UploadedFile[],
  baseUrl: string,
  prefix: (string | number)[] = [],
): SandboxMessage {
  const payload = asPayload(body, prefix);
  validate(payload, prefix, files.length);
  checkUploads(files, payload, prefix, new Set(message.attachments.map((a) => a.id)));
  const patch: Parameters<World['editMessage']>[1] = {};
  if (payload.content !== undefined) patch.content = payload.content ?? '';
  if (payload.components !== undefined) patch.components = payload.components ?? [];
  let attachments = message.attachments;
  if (payload.attachments !== undefined) {
    const keep = new Set((payload.attachments ?? []).map((a) => String(a.id)));
    attachments = redescribe(
      attachments.filter((a) => keep.has(a.id)),
      payload,
    );
  }
  // Files sent with an edit add to what is kept (docs/discord.md#attachments).
  const added = storeUploads(() => world.ids.next(), message.channelId, files, payload, baseUrl);
  if (payload.attachments !== undefined || added.length > 0) patch.attachments = [...attachments, ...added];
  if ((patch.attachments?.length ?? 0) > ATTACHMENT_LIMITS.count) {
    throw apiErrors.tooManyAttachments(ATTACHMENT_LIMITS.count);
  }
  if (payload.embeds !== undefined) {
    patch.embeds = resolveEmbedFiles(payload.embeds ?? [], patch.attachments ?? message.attachments);
  }
  const keptFlags = message.flags & (MessageFlag.Ephemeral | MessageFlag.IsComponentsV2);
  patch.flags =
    (keptFlags | ((payload.flags ?? 0) & ~(MessageFlag.Ephemeral | MessageFlag.Loading))) & ~MessageFlag.Loading;
  const merged = {
    content: patch.content ?? message.content,
    embeds: patch.embeds ?? message.embeds,
    components: patch.components ?? message.components,
    attachmentCount: (patch.attachments ?? message.attachments).length,
  };
  if (isEmptyMessage(merged)) throw apiErrors.emptyMessage();
  return world.editMessage(message, patch);
}
