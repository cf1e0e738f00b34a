/**
 * The bot's REST manager: discord.js's own `REST`, with the requests made with an interaction's
 * token (its callback, edits of `@original`, follow-ups) sent through a second `REST` that has no
 * global limit. Discord does not count those against the bot's 50 requests a second ("Interaction
 * endpoints are not bound to the bot's Global Rate Limit", rate-limits.mdx); @discordjs/rest
 * counts every request it queues on one manager, so a burst of answers would wait behind each
 * other (and behind the bot's channel posts) for a budget they do not use. Everything else keeps
 * discord.js's global limit.
 */
import { DefaultRestOptions, type InternalRequest, REST, type RESTOptions, type ResponseLike } from 'discord.js';

/**
 * discord.js's requests with files carry a `FormData`, sent by the undici it bundles (6) through the
 * process's global dispatcher. The Eventor client's undici (7) is loaded first in the bot and owns
 * that dispatcher, and it cannot send the form (`TypeError: action is not a function`), so every
 * upload failed. The form is made into bytes here (with its boundary), which any undici sends.
 */
export function formsAsBytes(makeRequest: RESTOptions['makeRequest']): RESTOptions['makeRequest'] {
  return async (url, init) => {
    if (!(init.body instanceof FormData)) return makeRequest(url, init);
    const encoded = new Response(init.body);
    const headers = {
      ...(init.headers as Record<string, string>),
      'content-type': encoded.headers.get('content-type')!,
    };
    return makeRequest(url, { ...init, body: Buffer.from(await encoded.arrayBuffer()), headers });
  };
}

/**
 * Requests authenticated by an interaction token instead of the bot token: the callback
 * (`/interactions/:id/:token/callback`) and the webhook routes of the application's interaction
 * webhook (`/webhooks/:application_id/:token…`). discord.js sends both with `auth: false`.
 */
export function isInteractionRequest(request: Pick<InternalRequest, 'fullRoute' | 'auth'>): boolean {
  if (request.auth !== false) return false;
  return (
    request.fullRoute.startsWith('/webhooks/') || /^\/interactions\/[^/]+\/[^/]+\/callback$/.test(request.fullRoute)
  );
}

/**
 * Idle rate-limit handlers of the interaction manager are dropped this often at the latest (most
 * go at once, see `queueRequest`): one is made per interaction token, and a token lives 15 minutes.
 */
const INTERACTION_HANDLER_SWEEP_MS = 60_000;

export class BotRest extends REST {
  /** Interaction-token requests: no global limit, per-route limits as Discord sends them. */
  readonly interactions: REST;

  constructor(given: Partial<RESTOptions> = {}) {
    const options = { ...given, makeRequest: formsAsBytes(given.makeRequest ?? DefaultRestOptions.makeRequest) };
    super(options);
    this.interactions = new REST({
      ...options,
      globalRequestsPerSecond: Number.POSITIVE_INFINITY,
      handlerSweepInterval: INTERACTION_HANDLER_SWEEP_MS,
    });
  }

  override queueRequest(request: InternalRequest): Promise<ResponseLike> {
    if (!isInteractionRequest(request)) return super.queueRequest(request);
    return this.interactions.queueRequest(request).finally(() => this.#dropIdleInteractionHandlers());
  }

  /**
   * @discordjs/rest keys a webhook route's handler by its token (its "major parameter"), so every
   * interaction leaves one behind until the hourly sweep: about 1 KiB each. The handlers of this
   * manager belong to tokens in flight, so a pass over them after each request is short; a handler
   * still waiting out a per-route limit is busy (not `inactive`) and stays.
   */
  #dropIdleInteractionHandlers(): void {
    this.interactions.handlers.sweep((handler) => handler.inactive);
  }

  override setAgent(agent: Parameters<REST['setAgent']>[0]): this {
    super.setAgent(agent);
    this.interactions.setAgent(agent);
    return this;
  }

  override clearHandlerSweeper(): void {
    super.clearHandlerSweeper();
    this.interactions.clearHandlerSweeper();
  }

  override clearHashSweeper(): void {
    super.clearHashSweeper();
    this.interactions.clearHashSweeper();
  }
}

/**
 * Gives a client the REST manager above. discord.js builds its own from `ClientOptions.rest` (it
 * takes options, not an instance) and nothing has used it before login, so it is replaced with one
 * built from the very same options, its sweep timers stopped first.
 */
export function withBotRest<C extends { rest: REST; options: { rest?: Partial<RESTOptions> } }>(client: C): C {
  client.rest.clearHandlerSweeper();
  client.rest.clearHashSweeper();
  client.rest = new BotRest(client.options.rest);
  return client;
}
