import { apiErrors, type FieldError, invalidFormBody } from './errors.js';
import type { UploadedFile } from './http.js';
import type { ApiAttachment, ApiEmbed, MessagePayload, SandboxMessage } from './types.js';

/**
 * Uploaded files as Discord treats them (docs/discord.md#attachments): the limits, how `files[n]`
 * parts pair with `attachments[].id`, and how `attachment://name` in embeds resolves.
 */

export const ATTACHMENT_LIMITS = {
  /** Files on one message. */
  count: 10,
  /** Bytes per file without boosts or Nitro (the bot has neither). */
  fileBytes: 10 * 1024 * 1024,
  /** Bytes of all files in one request. */
  requestBytes: 25 * 1024 * 1024,
  /** Alt text. */
  description: 1024,
} as const;

/** Only these can be shown inside an embed; any other file stays a plain attachment. */
const EMBEDDABLE = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif']);

const TYPES_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

export type StoredAttachment = SandboxMessage['attachments'][number];

type AttachmentRequest = NonNullable<MessagePayload['attachments']>[number];

function extension(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** The part's own type, or one from the name when the client sent none worth having. */
function contentTypeOf(file: UploadedFile, filename: string): string | undefined {
  const given = file.contentType.split(';')[0]!.trim();
  if (given && given !== 'application/octet-stream') return file.contentType;
  return TYPES_BY_EXTENSION[extension(filename)] ?? (given || undefined);
}

/** Discord stores names without spaces, so `attachment://` must name the file that way too. */
function cleanFilename(name: string): string {
  const cleaned = name.replace(/\s+/g, '_');
  return cleaned === '' ? 'unknown' : cleaned;
}

/** `files[3]` -> `"3"`; other part names pair by their position. */
function placeholderOf(file: UploadedFile, index: number): string {
  return /^files\[(\d+)\]$/.exec(file.field)?.[1] ?? String(index);
}

function requestsOf(payload: MessagePayload): AttachmentRequest[] {
  const list = payload.attachments;
  if (!Array.isArray(list)) return [];
  return list.filter((a): a is AttachmentRequest => typeof a === 'object' && a !== null);
}

/**
 * Checks one request's files against Discord's limits and `attachments[]` entries, throwing Discord's
 * error; `keptIds` are attachments the message already has (an edit may list those by their real id).
 */
export function checkUploads(
  files: UploadedFile[],
  payload: MessagePayload,
  prefix: (string | number)[],
  keptIds: ReadonlySet<string> = new Set(),
): void {
  if (files.length > ATTACHMENT_LIMITS.count) throw apiErrors.tooManyAttachments(ATTACHMENT_LIMITS.count);
  if (files.some((f) => f.data.length > ATTACHMENT_LIMITS.fileBytes)) throw apiErrors.fileTooLarge();
  const total = files.reduce((sum, f) => sum + f.data.length, 0);
  if (total > ATTACHMENT_LIMITS.requestBytes) throw apiErrors.requestTooLarge();
  const errors: FieldError[] = [];
  const requests = requestsOf(payload);
  requests.forEach((request, i) => {
    const description = request.description;
    if (typeof description === 'string' && description.length > ATTACHMENT_LIMITS.description) {
      errors.push({
        path: [...prefix, 'attachments', i, 'description'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: `Must be ${ATTACHMENT_LIMITS.description} or fewer in length.`,
      });
    }
  });
  if (errors.length > 0) throw invalidFormBody(errors);
  const placeholders = new Set(files.map(placeholderOf));
  for (const request of requests) {
    const id = String(request.id);
    if (!placeholders.has(id) && !keptIds.has(id)) throw apiErrors.uploadedFileNotFound();
  }
}

/** Stores the request's files as attachments of a message in `channelId`, each with a fresh id. */
export function storeUploads(
  nextId: () => string,
  channelId: string,
  files: UploadedFile[],
  payload: MessagePayload,
  baseUrl: string,
): StoredAttachment[] {
  const requests = requestsOf(payload);
  return files.map((file, index) => {
    const id = nextId();
    const placeholder = placeholderOf(file, index);
    const described = requests.find((a) => String(a.id) === placeholder);
    const filename = cleanFilename(described?.filename ?? file.filename);
    const url = `${baseUrl}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
    const contentType = contentTypeOf(file, filename);
    const attachment: ApiAttachment & { data: Buffer } = {
      id,
      filename,
      size: file.data.length,
      url,
      proxy_url: url,
      ...(contentType ? { content_type: contentType } : {}),
      ...(typeof described?.description === 'string' ? { description: described.description } : {}),
      data: file.data,
    };
    return attachment;
  });
}

/** An edit may change the alt text of attachments it keeps. */
export function redescribe(kept: StoredAttachment[], payload: MessagePayload): StoredAttachment[] {
  const requests = requestsOf(payload);
  return kept.map((attachment) => {
    const request = requests.find((a) => String(a.id) === attachment.id);
    if (!request || !('description' in request)) return attachment;
    const { description: _old, ...rest } = attachment;
    return typeof request.description === 'string' ? { ...rest, description: request.description } : rest;
  });
}

const EMBED_MEDIA = ['image', 'thumbnail'] as const;

/**
 * `attachment://name` in an embed's image or thumbnail becomes the stored file's URL. A name that
 * matches no image attached is not refused: Discord drops it from the embed and shows the file plainly.
 */
export function resolveEmbedFiles(embeds: ApiEmbed[], attachments: StoredAttachment[]): ApiEmbed[] {
  return embeds.map((embed) => {
    const out: ApiEmbed = { ...embed };
    for (const key of EMBED_MEDIA) {
      const url = out[key]?.url;
      if (typeof url !== 'string' || !url.startsWith('attachment://')) continue;
      const name = url.slice('attachment://'.length);
      const file = attachments.find((a) => a.filename === name && EMBEDDABLE.has(extension(a.filename)));
      if (file) out[key] = { url: file.url };
      else delete out[key];
    }
    return out;
  });
}
