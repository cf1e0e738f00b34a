/**
 * A server's guild scheduled events as the `calendar` kind uses them, through discord.js's REST
 * client (rate limits and retries included): list, create (external type), edit, delete, and
 * what Discord's refusals mean (docs/discord.md#scheduled-events). Reading needs no permission;
 * creating needs Create Events, editing and deleting the bot's own events Create Events too (others'
 * Manage Events). Nothing listens to the gateway: the kind lists the events over REST once a run.
 */
import { type Client, DiscordAPIError, Routes } from 'discord.js';
import type { ScheduledEventFields } from '../../../render/calendar.js';

/** Discord's scheduled event statuses; COMPLETED and CANCELED are final. */
export const SCHEDULED_EVENT_STATUS = { scheduled: 1, active: 2, completed: 3, canceled: 4 } as const;
const EXTERNAL = 3;
const GUILD_ONLY = 2;

/** At most this many SCHEDULED or ACTIVE events per server (Discord's 30038 beyond it). */
export const SCHEDULED_EVENTS_LIMIT = 100;

/** One of the server's scheduled events, as far as the kind reads it. */
export interface ListedScheduledEvent {
  id: string;
  creatorId: string | null;
  status: number;
  description: string | null;
  scheduledStartTime: string;
}

/** What a change sends: the fields that changed, or the status (cancelling). */
export type ScheduledEventChange = Partial<ScheduledEventFields> & { status?: number };

/** What the kind needs from Discord; `discordScheduledEvents` is the real one. */
export interface ScheduledEventsTarget {
  /** The bot's user id (the creator of its events), null before login. */
  botUserId(): string | null;
  list(guildId: string): Promise<ListedScheduledEvent[]>;
  /** Creates an external event; its id. `reason` goes to the audit log. */
  create(guildId: string, fields: ScheduledEventFields, reason: string): Promise<string>;
  edit(guildId: string, eventId: string, change: ScheduledEventChange, reason: string): Promise<void>;
  remove(guildId: string, eventId: string): Promise<void>;
}

interface ApiScheduledEvent {
  id: string;
  creator_id?: string | null;
  status: number;
  description?: string | null;
  scheduled_start_time: string;
}

function body(change: ScheduledEventChange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (change.name !== undefined) out['name'] = change.name;
  if (change.description !== undefined) out['description'] = change.description;
  if (change.location !== undefined) out['entity_metadata'] = { location: change.location };
  if (change.scheduledStartTime !== undefined) out['scheduled_start_time'] = change.scheduledStartTime;
  if (change.scheduledEndTime !== undefined) out['scheduled_end_time'] = change.scheduledEndTime;
  if (change.status !== undefined) out['status'] = change.status;
  return out;
}

export function discordScheduledEvents(client: Client): ScheduledEventsTarget {
  return {
    botUserId: () => client.user?.id ?? null,
    async list(guildId) {
      const events = (await client.rest.get(Routes.guildScheduledEvents(guildId))) as ApiScheduledEvent[];
      return events.map((e) => ({
        id: e.id,
        creatorId: e.creator_id ?? null,
        status: e.status,
        description: e.description ?? null,
        scheduledStartTime: e.scheduled_start_time,
      }));
    },
    async create(guildId, fields, reason) {
      const created = (await client.rest.post(Routes.guildScheduledEvents(guildId), {
        body: { ...body(fields), entity_type: EXTERNAL, privacy_level: GUILD_ONLY, channel_id: null },
        reason,
      })) as ApiScheduledEvent;
      return created.id;
    },
    async edit(guildId, eventId, change, reason) {
      await client.rest.patch(Routes.guildScheduledEvent(guildId, eventId), { body: body(change), reason });
    },
    async remove(guildId, eventId) {
      await client.rest.delete(Routes.guildScheduledEvent(guildId, eventId));
    },
  };
}

/**
 * What a refusal means: `forbidden` (no permission: pause the kind), `unknown` (10070: deleted),
 * `finished` (180000: completed or cancelled, final), `full` (30038: the server's 100), or null.
 */
export type ScheduledEventRefusal = 'forbidden' | 'unknown' | 'finished' | 'full';

export function scheduledEventRefusal(error: unknown): ScheduledEventRefusal | null {
  if (!(error instanceof DiscordAPIError)) return null;
  if (error.code === 10070) return 'unknown';
  if (error.code === 180000) return 'finished';
  if (error.code === 30038) return 'full';
  if (error.code === 50013 || error.code === 50001 || error.status === 403) return 'forbidden';
  return null;
}
