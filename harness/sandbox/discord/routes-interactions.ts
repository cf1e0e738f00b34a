import { performance } from 'node:perf_hooks';
import { CallbackType, InteractionType, MessageFlag, MessageType } from './constants.js';
import type { SandboxContext } from './context.js';
import { apiErrors, invalidFormBody, SandboxApiError } from './errors.js';
import { noContent, ok, type Route, type RouteContext, type RouteResult } from './http.js';
import type { AutocompleteChoice, InteractionRecord, ModalData } from './interaction-state.js';
import { checkAutocompleteChoices, checkModal } from './limits.js';
import { createMessage, editMessage } from './messages.js';
import type { SandboxMessage } from './types.js';

/**
 * Interaction callbacks and the webhook-token routes (follow-ups, @original edits). These carry
 * no bot token; the interaction token is the credential, valid 3 s for the first answer and
 * 15 minutes for everything after (receiving-and-responding.mdx).
 */
export function interactionRoutes(ctx: SandboxContext): Route[] {
  const { world, interactions } = ctx;

  /** Record failures in the interaction's history too, so `handle.history()` explains a missing reply. */
  const guarded =
    (record: () => InteractionRecord | undefined, fn: (r: RouteContext) => RouteResult) =>
    (r: RouteContext): RouteResult => {
      try {
        return fn(r);
      } catch (error) {
        const target = record();
        if (target && error instanceof SandboxApiError) {
          target.history.push({
            kind: 'rejected',
            at: ctx.now(),
            elapsedMs: elapsedSince(target),
            method: r.method,
            route: r.path.replace(target.token, ':token'),
            status: error.status,
            code: error.code,
            message: error.message,
          });
          world.changed('interaction');
        }
        throw error;
      }
    };

  const invalidType = (type: number): SandboxApiError =>
    invalidFormBody([
      {
        path: ['type'],
        code: 'INTERACTION_RESPONSE_TYPE_INVALID',
        message: `Interaction response type ${type} is not valid for this interaction`,
      },
    ]);

  const callback = (r: RouteContext): RouteResult => {
    const record = interactions.get(r.params['interactionId'] ?? '');
    if (!record || record.token !== r.params['token']) throw apiErrors.unknownInteraction();
    // The deadline is checked before "already acknowledged": Discord forgets the token after 3 s.
    if (!record.response && interactions.initialDeadlinePassed(record)) throw apiErrors.unknownInteraction();
    if (record.response) throw apiErrors.alreadyAcknowledged();
    const body = (r.body ?? {}) as { type?: number; data?: unknown };
    const type = Number(body.type);
    const channel = world.channel(record.channelId);
    let message: SandboxMessage | null = null;
    switch (type) {
      case CallbackType.Pong:
        if (record.type !== InteractionType.Ping) throw invalidType(type);
        break;
      case CallbackType.ChannelMessageWithSource:
      case CallbackType.DeferredChannelMessageWithSource: {
        if (record.type === InteractionType.ApplicationCommandAutocomplete || record.type === InteractionType.Ping)
          throw invalidType(type);
        if (!channel) throw apiErrors.unknownChannel();
        const deferred = type === CallbackType.DeferredChannelMessageWithSource;
        const data = (body.data ?? {}) as { flags?: number };
        message = createMessage(world, {
          channel,
          authorId: world.botUser.id,
          // A deferral only carries the ephemeral flag; the content comes with the later edit.
          body: deferred ? { flags: data.flags ?? 0 } : body.data,
          files: deferred ? [] : r.files,
          baseUrl: ctx.baseUrl(),
          prefix: ['data'],
          webhookId: world.applicationId,
          interactionId: record.id,
          type: record.type === InteractionType.ApplicationCommand ? MessageType.ChatInputCommand : MessageType.Default,
          ephemeralViewer: record.userId,
          loading: deferred,
        });
        record.originalMessageId = message.id;
        break;
      }
      case CallbackType.DeferredUpdateMessage:
      case CallbackType.UpdateMessage: {
        const source = record.sourceMessageId ? world.message(record.sourceMessageId) : undefined;
        if (!source) throw invalidType(type);
        if (type === CallbackType.UpdateMessage) {
          message = editMessage(world, source, body.data ?? {}, r.files, ctx.baseUrl(), ['data']);
        } else message = source;
        record.originalMessageId = source.id;
        break;
      }
      case CallbackType.ApplicationCommandAutocompleteResult: {
        if (record.type !== InteractionType.ApplicationCommandAutocomplete) throw invalidType(type);
        const errors = checkAutocompleteChoices(body.data);
        if (errors.length > 0) throw invalidFormBody(errors);
        record.choices = (body.data as { choices: AutocompleteChoice[] }).choices;
        break;
      }
      case CallbackType.Modal: {
        if (
          record.type === InteractionType.ApplicationCommandAutocomplete ||
          record.type === InteractionType.ModalSubmit ||
          record.type === InteractionType.Ping
        ) {
          throw invalidType(type);
        }
        const errors = checkModal(body.data);
        if (errors.length > 0) throw invalidFormBody(errors);
        record.modal = body.data as ModalData;
        break;
      }
      default:
        throw invalidType(type);
    }
    const at = ctx.now();
    record.response = { type, at };
    record.history.push({ kind: 'callback', at, elapsedMs: elapsedSince(record), type, data: body.data ?? null });
    world.changed('interaction');
    if (r.query.get('with_response') !== 'true') return noContent();
    return ok({
      interaction: {
        id: record.id,
        type: record.type,
        ...(message
          ? {
              response_message_id: message.id,
              response_message_loading: message.loading,
              response_message_ephemeral: message.ephemeral,
            }
          : {}),
      },
      resource: { type, ...(message ? { message: world.apiMessage(message) } : {}) },
    });
  };

  /** Webhook id must be the application, token a live interaction token. */
  const tokenRecord = (r: RouteContext): InteractionRecord => {
    if (r.params['applicationId'] !== world.applicationId) throw apiErrors.unknownWebhook();
    const record = interactions.byWebhookToken(r.params['token'] ?? '');
    if (!record) throw apiErrors.unknownWebhook();
    if (interactions.tokenExpired(record)) throw apiErrors.invalidWebhookToken();
    return record;
  };

  const lookup = (r: RouteContext) => () => interactions.byWebhookToken(r.params['token'] ?? '');

  const targetMessage = (record: InteractionRecord, messageId: string | undefined): SandboxMessage => {
    const id = messageId === '@original' ? record.originalMessageId : messageId;
    const message = id ? world.message(id) : undefined;
    const belongs = message && (id === record.originalMessageId || record.followUpIds.includes(message.id));
    if (!message || !belongs) throw apiErrors.unknownMessage();
    return message;
  };

  const followUp = (r: RouteContext): RouteResult => {
    const record = tokenRecord(r);
    // A follow-up needs an initial response first (Discord: Unknown Webhook until then).
    if (!record.response) throw apiErrors.unknownWebhook();
    const original = record.originalMessageId ? world.message(record.originalMessageId) : undefined;
    let message: SandboxMessage;
    let filledDeferral = false;
    if (original?.loading && record.response.type === CallbackType.DeferredChannelMessageWithSource) {
      // "Create Followup Message": after a deferral the first follow-up replaces the loading message,
      // keeping the deferral's ephemeral state.
      message = editMessage(world, original, stripEphemeral(r.body), r.files, ctx.baseUrl());
      filledDeferral = true;
    } else {
      const channel = world.channel(record.channelId);
      if (!channel) throw apiErrors.unknownChannel();
      message = createMessage(world, {
        channel,
        authorId: world.botUser.id,
        body: r.body,
        files: r.files,
        baseUrl: ctx.baseUrl(),
        webhookId: world.applicationId,
        interactionId: record.id,
        ephemeralViewer: record.userId,
      });
      record.followUpIds.push(message.id);
    }
    record.history.push({
      kind: 'followUp',
      at: ctx.now(),
      elapsedMs: elapsedSince(record),
      messageId: message.id,
      filledDeferral,
    });
    world.changed('interaction');
    // discord.js always sends ?wait=true; without it Discord answers 204.
    return r.query.get('wait') === 'false' ? noContent() : ok(world.apiMessage(message));
  };

  const getMessage = (r: RouteContext): RouteResult => {
    const record = tokenRecord(r);
    return ok(world.apiMessage(targetMessage(record, r.params['messageId'])));
  };

  const patchMessage = (r: RouteContext): RouteResult => {
    const record = tokenRecord(r);
    const message = targetMessage(record, r.params['messageId']);
    const edited = editMessage(world, message, r.body, r.files, ctx.baseUrl());
    const original = message.id === record.originalMessageId;
    record.history.push({
      kind: original ? 'editOriginal' : 'editFollowUp',
      at: ctx.now(),
      elapsedMs: elapsedSince(record),
      messageId: edited.id,
    });
    world.changed('interaction');
    return ok(world.apiMessage(edited));
  };

  const deleteMessage = (r: RouteContext): RouteResult => {
    const record = tokenRecord(r);
    const message = targetMessage(record, r.params['messageId']);
    world.deleteMessage(message);
    const original = message.id === record.originalMessageId;
    record.history.push({
      kind: original ? 'deleteOriginal' : 'deleteFollowUp',
      at: ctx.now(),
      elapsedMs: elapsedSince(record),
      messageId: message.id,
    });
    world.changed('interaction');
    return noContent();
  };

  const byInteractionId = (r: RouteContext) => () => interactions.get(r.params['interactionId'] ?? '');
  const wrap =
    (fn: (r: RouteContext) => RouteResult, find: (r: RouteContext) => () => InteractionRecord | undefined) =>
    (r: RouteContext) =>
      guarded(find(r), fn)(r);

  const webhook = '/webhooks/:applicationId/:token';
  return [
    {
      method: 'POST',
      template: '/interactions/:interactionId/:token/callback',
      auth: false,
      handle: wrap(callback, byInteractionId),
    },
    { method: 'POST', template: webhook, auth: false, handle: wrap(followUp, lookup) },
    { method: 'GET', template: `${webhook}/messages/:messageId`, auth: false, handle: wrap(getMessage, lookup) },
    { method: 'PATCH', template: `${webhook}/messages/:messageId`, auth: false, handle: wrap(patchMessage, lookup) },
    { method: 'DELETE', template: `${webhook}/messages/:messageId`, auth: false, handle: wrap(deleteMessage, lookup) },
  ];
}

/** Real milliseconds since the interaction was dispatched (monotonic, whatever the sandbox's clock says). */
function elapsedSince(record: InteractionRecord): number {
  return performance.now() - record.dispatchedAtMonotonicMs;
}

/** Ephemerality of a deferred reply is fixed at defer time; a follow-up's flag cannot change it. */
function stripEphemeral(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const copy = { ...(body as Record<string, unknown>) };
  if (typeof copy['flags'] === 'number') copy['flags'] = (copy['flags'] as number) & ~MessageFlag.Ephemeral;
  return copy;
}
