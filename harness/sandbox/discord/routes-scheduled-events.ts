import {
  ErrorCode,
  Permission,
  ScheduledEventEntityType,
  ScheduledEventPrivacyLevel,
  ScheduledEventStatus,
} from './constants.js';
import type { SandboxContext } from './context.js';
import { apiErrors, type FieldError, invalidFormBody, SandboxApiError } from './errors.js';
import { noContent, ok, type Route, type RouteContext } from './http.js';
import { LIMITS } from './limits.js';
import type { SandboxScheduledEvent } from './types.js';
import type { World } from './world.js';

/**
 * Guild scheduled events (resources/guild-scheduled-event.mdx; what the bot relies on:
 * docs/discord.md#scheduled-events). The sandbox makes no voice or stage channels, so only
 * EXTERNAL events can be made; the rules are Discord's for that type.
 */

const { Scheduled, Active, Completed, Canceled } = ScheduledEventStatus;

/** The only status changes Discord allows; COMPLETED and CANCELED are final. */
const TRANSITIONS: ReadonlySet<string> = new Set([
  `${Scheduled}>${Active}`,
  `${Active}>${Completed}`,
  `${Scheduled}>${Canceled}`,
]);

export const unknownScheduledEvent = (): SandboxApiError =>
  new SandboxApiError(404, ErrorCode.UnknownGuildScheduledEvent, 'Unknown Guild Scheduled Event');

/** The fields of an event after a create or an update, before they are stored. */
export interface ScheduledEventDraft {
  name: unknown;
  description: unknown;
  start: unknown;
  end: unknown;
  privacyLevel: unknown;
  entityType: unknown;
  channelId: unknown;
  /** `entity_metadata` as sent (or as stored, on an update that leaves it out). */
  metadata: unknown;
}

const parseTime = (value: unknown): number | null => {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Discord's rules for an event's fields (its create table and the object's field table); an
 * empty list when the draft is valid. `startMustBeFuture`: a new or moved start of an event
 * that has not started yet (Discord refuses to schedule one in the past).
 */
export function scheduledEventErrors(
  draft: ScheduledEventDraft,
  now: number,
  startMustBeFuture: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const add = (path: string[], code: string, message: string): void => {
    errors.push({ path, code, message });
  };
  const required = (path: string[], value: unknown): boolean => {
    if (value !== undefined && value !== null && value !== '') return true;
    add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return false;
  };
  const between = (path: string[], value: unknown, min: number, max: number): void => {
    if (typeof value !== 'string' || value.length < min || value.length > max) {
      add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    }
  };

  if (required(['name'], draft.name)) between(['name'], draft.name, 1, LIMITS.scheduledEventName);
  if (draft.description !== undefined && draft.description !== null) {
    if (typeof draft.description !== 'string') add(['description'], 'BASE_TYPE_STRING', 'Must be a string.');
    else if (draft.description.length > LIMITS.scheduledEventDescription)
      add(['description'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.scheduledEventDescription} or fewer in length.`);
  }
  if (required(['privacy_level'], draft.privacyLevel) && draft.privacyLevel !== ScheduledEventPrivacyLevel.GuildOnly) {
    add(['privacy_level'], 'BASE_TYPE_CHOICES', `Value must be one of {${ScheduledEventPrivacyLevel.GuildOnly}}.`);
  }
  let start: number | null = null;
  if (required(['scheduled_start_time'], draft.start)) {
    start = parseTime(draft.start);
    if (start === null)
      add(['scheduled_start_time'], 'DATE_TIME_TYPE_PARSE', 'Could not parse time. Should be ISO8601.');
    else if (startMustBeFuture && start < now)
      add(['scheduled_start_time'], 'GUILD_SCHEDULED_EVENT_SCHEDULE_PAST', 'Cannot schedule event in the past.');
  }
  const types: unknown[] = Object.values(ScheduledEventEntityType);
  if (!required(['entity_type'], draft.entityType)) return errors;
  if (!types.includes(draft.entityType)) {
    add(['entity_type'], 'BASE_TYPE_CHOICES', `Value must be one of {${types.join(', ')}}.`);
    return errors;
  }
  if (draft.entityType !== ScheduledEventEntityType.External) {
    // Voice and stage events need a voice or stage channel; the sandbox has none.
    if (required(['channel_id'], draft.channelId)) add(['channel_id'], 'CHANNEL_TYPE_INVALID', 'Unknown channel type.');
    return errors;
  }
  if (draft.channelId !== undefined && draft.channelId !== null) {
    add(['channel_id'], 'GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED', 'Must be null for an external event.');
  }
  const location = (draft.metadata as { location?: unknown } | null | undefined)?.location;
  if (required(['entity_metadata', 'location'], location)) {
    between(['entity_metadata', 'location'], location, 1, LIMITS.scheduledEventLocation);
  }
  if (required(['scheduled_end_time'], draft.end)) {
    const end = parseTime(draft.end);
    if (end === null) add(['scheduled_end_time'], 'DATE_TIME_TYPE_PARSE', 'Could not parse time. Should be ISO8601.');
    else if (start !== null && end <= start)
      add(['scheduled_end_time'], 'GUILD_SCHEDULED_EVENT_END_BEFORE_START', 'Must be after the start time.');
  }
  return errors;
}

/** The SCHEDULED and ACTIVE events of a guild: Discord allows at most 100 (error 30038). */
export function uncompletedCount(world: World, guildId: string): number {
  return world.guildScheduledEvents(guildId).filter((e) => e.status === Scheduled || e.status === Active).length;
}

export const tooManyScheduledEvents = (): SandboxApiError =>
  new SandboxApiError(
    400,
    ErrorCode.MaximumUncompletedScheduledEvents,
    `Maximum number of uncompleted guild scheduled events reached (${LIMITS.uncompletedScheduledEvents})`,
  );

/** A draft's valid fields as a stored event (after `scheduledEventErrors` found none). */
export function eventFromDraft(
  draft: ScheduledEventDraft,
  base: Pick<SandboxScheduledEvent, 'id' | 'guildId' | 'creatorId' | 'status'>,
): SandboxScheduledEvent {
  const location = (draft.metadata as { location?: string } | null | undefined)?.location;
  return {
    ...base,
    channelId: null,
    name: draft.name as string,
    description: typeof draft.description === 'string' ? draft.description : null,
    startAt: parseTime(draft.start)!,
    endAt: parseTime(draft.end),
    privacyLevel: draft.privacyLevel as number,
    entityType: draft.entityType as number,
    location: location ?? null,
  };
}

export function scheduledEventRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;

  // As for the guild's other contents: a guild the bot is not in answers 10004 or 50001.
  const guildOf = (r: RouteContext): string => {
    const id = r.params['guildId'] ?? '';
    if (!world.guilds.has(id)) throw apiErrors.unknownGuild();
    if (!world.botInGuild(id)) throw apiErrors.missingAccess();
    return id;
  };
  const eventOf = (r: RouteContext, guildId: string): SandboxScheduledEvent => {
    const event = world.scheduledEvent(guildId, r.params['eventId'] ?? '');
    if (!event) throw unknownScheduledEvent();
    return event;
  };
  /** Guild-level permissions decide for EXTERNAL events: own events need Create or Manage Events, others' Manage. */
  const mayChange = (guildId: string, event: SandboxScheduledEvent): boolean => {
    const permissions = world.basePermissions(guildId, world.botUser.id);
    const needed =
      event.creatorId === world.botUser.id
        ? Permission.CreateEvents | Permission.ManageEvents
        : Permission.ManageEvents;
    return (permissions & needed) !== 0n;
  };
  const withUserCount = (r: RouteContext): { userCount?: number } =>
    // No member marks interest in the sandbox: the count is 0 when asked for.
    r.query.get('with_user_count') === 'true' ? { userCount: 0 } : {};
  const body = (r: RouteContext): Record<string, unknown> => {
    if (!r.body || typeof r.body !== 'object' || Array.isArray(r.body)) throw invalidFormBody([]);
    return r.body as Record<string, unknown>;
  };

  return [
    {
      method: 'GET',
      template: '/guilds/:guildId/scheduled-events',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        return ok(world.guildScheduledEvents(guildId).map((e) => world.apiScheduledEvent(e, withUserCount(r))));
      },
    },
    {
      method: 'POST',
      template: '/guilds/:guildId/scheduled-events',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        if ((world.basePermissions(guildId, world.botUser.id) & Permission.CreateEvents) === 0n)
          throw apiErrors.missingPermissions();
        const b = body(r);
        const draft: ScheduledEventDraft = {
          name: b['name'],
          description: b['description'],
          start: b['scheduled_start_time'],
          end: b['scheduled_end_time'],
          privacyLevel: b['privacy_level'],
          entityType: b['entity_type'],
          channelId: b['channel_id'],
          metadata: b['entity_metadata'],
        };
        const errors = scheduledEventErrors(draft, ctx.now(), true);
        if (errors.length > 0) throw invalidFormBody(errors);
        if (uncompletedCount(world, guildId) >= LIMITS.uncompletedScheduledEvents) throw tooManyScheduledEvents();
        const event = eventFromDraft(draft, {
          id: world.ids.next(),
          guildId,
          creatorId: world.botUser.id,
          status: Scheduled,
        });
        return ok(world.apiScheduledEvent(world.addScheduledEvent(event)));
      },
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/scheduled-events/:eventId',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        return ok(world.apiScheduledEvent(eventOf(r, guildId), withUserCount(r)));
      },
    },
    {
      method: 'PATCH',
      template: '/guilds/:guildId/scheduled-events/:eventId',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        const event = eventOf(r, guildId);
        if (!mayChange(guildId, event)) throw apiErrors.missingPermissions();
        if (event.status === Completed || event.status === Canceled) {
          throw new SandboxApiError(400, ErrorCode.CannotUpdateFinishedEvent, 'Cannot update a finished event');
        }
        const b = body(r);
        const has = (key: string): boolean => b[key] !== undefined;
        const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
        const draft: ScheduledEventDraft = {
          name: has('name') ? b['name'] : event.name,
          description: 'description' in b ? b['description'] : event.description,
          start: has('scheduled_start_time') ? b['scheduled_start_time'] : iso(event.startAt),
          end: 'scheduled_end_time' in b ? b['scheduled_end_time'] : iso(event.endAt),
          privacyLevel: has('privacy_level') ? b['privacy_level'] : event.privacyLevel,
          entityType: has('entity_type') ? b['entity_type'] : event.entityType,
          channelId: 'channel_id' in b ? b['channel_id'] : event.channelId,
          metadata: 'entity_metadata' in b ? b['entity_metadata'] : { location: event.location },
        };
        const moved = has('scheduled_start_time') && parseTime(b['scheduled_start_time']) !== event.startAt;
        const errors = scheduledEventErrors(draft, ctx.now(), moved && event.status === Scheduled);
        let status = event.status;
        if (has('status') && b['status'] !== event.status) {
          if (typeof b['status'] !== 'number' || !TRANSITIONS.has(`${event.status}>${b['status']}`)) {
            errors.push({
              path: ['status'],
              code: 'GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION',
              message: `Cannot change the status from ${event.status} to ${String(b['status'])}.`,
            });
          } else status = b['status'] as number;
        }
        if (errors.length > 0) throw invalidFormBody(errors);
        const next = eventFromDraft(draft, event);
        return ok(world.apiScheduledEvent(world.updateScheduledEvent(event, { ...next, status })));
      },
    },
    {
      method: 'DELETE',
      template: '/guilds/:guildId/scheduled-events/:eventId',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        const event = eventOf(r, guildId);
        if (!mayChange(guildId, event)) throw apiErrors.missingPermissions();
        world.deleteScheduledEvent(event);
        return noContent();
      },
    },
    {
      method: 'GET',
      template: '/guilds/:guildId/scheduled-events/:eventId/users',
      auth: true,
      handle: (r) => {
        const guildId = guildOf(r);
        eventOf(r, guildId);
        // Nobody marks interest in the sandbox: an empty page, as for an event nobody follows.
        return ok([]);
      },
    },
  ];
}
