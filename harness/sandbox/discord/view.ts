import type { ApiComponent, ApiEmbed, MessageRevision, SandboxMessage, SandboxScheduledEvent } from './types.js';
import type { World } from './world.js';

/** A snapshot of a message as a test reads it (plain data; later edits do not change it). */
export interface MessageView {
  id: string;
  channelId: string;
  guildId: string | null;
  author: { id: string; username: string; bot: boolean };
  content: string;
  embeds: ApiEmbed[];
  components: ApiComponent[];
  attachments: {
    id: string;
    filename: string;
    size: number;
    contentType: string | undefined;
    /** Alt text. */
    description: string | undefined;
    url: string;
    data: Buffer;
  }[];
  flags: number;
  /** Only the invoking user sees it. */
  ephemeral: boolean;
  /** A deferred reply still showing "thinking...". */
  loading: boolean;
  /** Sent as an interaction response or follow-up. */
  interactionId: string | null;
  threadId: string | null;
  /** The `nonce` it was created with, if any. */
  nonce: string | number | null;
  /** Emoji the bot reacted with. */
  reactions: string[];
  createdAt: number;
  editedAt: number | null;
  /** Earlier states, oldest first. */
  edits: MessageRevision[];
  deleted: boolean;
}

export function viewOf(world: World, message: SandboxMessage): MessageView {
  const author = world.users.get(message.authorId);
  return {
    id: message.id,
    channelId: message.channelId,
    guildId: message.guildId,
    author: { id: message.authorId, username: author?.username ?? 'unknown', bot: author?.bot ?? false },
    content: message.content,
    embeds: structuredClone(message.embeds),
    components: structuredClone(message.components),
    attachments: message.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      contentType: a.content_type,
      description: a.description,
      url: a.url,
      data: a.data,
    })),
    flags: message.flags,
    ephemeral: message.ephemeral,
    loading: message.loading,
    interactionId: message.interactionId,
    threadId: message.threadId,
    nonce: message.nonce ?? null,
    reactions: [...message.reactions],
    createdAt: message.createdAt,
    editedAt: message.editedAt,
    edits: structuredClone(message.edits),
    deleted: message.deleted,
  };
}

/** A guild scheduled event as a test reads it (plain data, times in epoch ms). */
export interface ScheduledEventView {
  id: string;
  guildId: string;
  creatorId: string;
  name: string;
  description: string | null;
  start: number;
  end: number | null;
  /** 1 SCHEDULED, 2 ACTIVE, 3 COMPLETED, 4 CANCELED. */
  status: number;
  entityType: number;
  location: string | null;
}

export function scheduledEventView(event: SandboxScheduledEvent): ScheduledEventView {
  return {
    id: event.id,
    guildId: event.guildId,
    creatorId: event.creatorId,
    name: event.name,
    description: event.description,
    start: event.startAt,
    end: event.endAt,
    status: event.status,
    entityType: event.entityType,
    location: event.location,
  };
}
