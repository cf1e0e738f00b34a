import { INITIAL_RESPONSE_DEADLINE_MS, INTERACTION_TOKEN_LIFETIME_MS } from './constants.js';
import type { ApiComponent } from './types.js';

export interface AutocompleteChoice {
  name: string;
  value: string | number;
  name_localizations?: Record<string, string> | null;
}

export interface ModalData {
  custom_id: string;
  title: string;
  components: ApiComponent[];
}

/**
 * Everything that happened to an interaction, in order: what `handle.history()` returns. `at` is
 * the sandbox's clock (which a test may fake); `elapsedMs` is real time since the interaction was
 * dispatched, on the monotonic clock (`performance.now()`), for measuring how fast the bot answers.
 */
export type InteractionEvent = { elapsedMs: number } & (
  | { kind: 'callback'; at: number; type: number; data: unknown }
  | { kind: 'editOriginal'; at: number; messageId: string }
  | { kind: 'deleteOriginal'; at: number; messageId: string }
  | {
      kind: 'followUp';
      at: number;
      messageId: string /** a follow-up that filled a deferred reply */;
      filledDeferral: boolean;
    }
  | { kind: 'editFollowUp'; at: number; messageId: string }
  | { kind: 'deleteFollowUp'; at: number; messageId: string }
  | { kind: 'rejected'; at: number; method: string; route: string; status: number; code: number; message: string }
);

export interface InteractionRecord {
  id: string;
  token: string;
  type: number;
  createdAt: number;
  /** `performance.now()` when INTERACTION_CREATE was sent: the start of every event's `elapsedMs`. */
  dispatchedAtMonotonicMs: number;
  guildId: string | null;
  channelId: string;
  userId: string;
  locale: string;
  /** The INTERACTION_CREATE `d` that was dispatched. */
  payload: Record<string, unknown>;
  /** For components: the message the component sits on (target of UPDATE_MESSAGE). */
  sourceMessageId: string | null;
  /** The first (and only allowed) callback. */
  response: { type: number; at: number } | null;
  /** The interaction's "@original" message, once there is one. */
  originalMessageId: string | null;
  followUpIds: string[];
  choices: AutocompleteChoice[] | null;
  modal: ModalData | null;
  history: InteractionEvent[];
}

/** Interactions by id and token, with Discord's two deadlines applied against the injected clock. */
export class InteractionStore {
  private readonly byId = new Map<string, InteractionRecord>();
  private readonly byToken = new Map<string, InteractionRecord>();

  constructor(private readonly now: () => number) {}

  add(record: InteractionRecord): void {
    this.byId.set(record.id, record);
    this.byToken.set(record.token, record);
  }

  get(id: string): InteractionRecord | undefined {
    return this.byId.get(id);
  }

  byWebhookToken(token: string): InteractionRecord | undefined {
    return this.byToken.get(token);
  }

  all(): InteractionRecord[] {
    return [...this.byId.values()];
  }

  /** The initial response must arrive within 3 s of creation. */
  initialDeadlinePassed(record: InteractionRecord): boolean {
    return this.now() > record.createdAt + INITIAL_RESPONSE_DEADLINE_MS;
  }

  /** Webhook (follow-up/edit) access lasts 15 minutes. */
  tokenExpired(record: InteractionRecord): boolean {
    return this.now() > record.createdAt + INTERACTION_TOKEN_LIFETIME_MS;
  }
}
