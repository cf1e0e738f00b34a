import { CallbackType, InteractionType } from './constants.js';
import type { AutocompleteChoice, InteractionEvent, InteractionRecord, ModalData } from './interaction-state.js';
import { type MessageView, viewOf } from './view.js';
import type { World } from './world.js';

export interface WaitOptions {
  /** Wall-clock bound for the wait (default 5000 ms). */
  timeoutMs?: number;
}

/** Predicate-based waiting, re-evaluated on every world change (no polling loops). */
export type Waiter = <T>(
  predicate: () => T | undefined | null | false,
  options?: WaitOptions & { description?: string },
) => Promise<T>;

const CALLBACK_NAMES: Record<number, string> = {
  1: 'PONG',
  4: 'CHANNEL_MESSAGE_WITH_SOURCE',
  5: 'DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE',
  6: 'DEFERRED_UPDATE_MESSAGE',
  7: 'UPDATE_MESSAGE',
  8: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESULT',
  9: 'MODAL',
};

/** One-line summary of an interaction event, used in timeout messages. */
export function describeEvent(event: InteractionEvent): string {
  switch (event.kind) {
    case 'callback':
      return `callback ${CALLBACK_NAMES[event.type] ?? event.type}`;
    case 'rejected':
      return `rejected ${event.method} ${event.route} -> ${event.status} ${event.code} ${event.message}`;
    default:
      return `${event.kind} ${event.messageId}`;
  }
}

/**
 * What a test holds after dispatching an interaction: it observes how the bot answered (reply,
 * deferral + edit, update, modal, autocomplete choices, follow-ups) without touching discord.js.
 */
export class InteractionHandle {
  constructor(
    private readonly world: World,
    private readonly waitFor: Waiter,
    readonly record: InteractionRecord,
  ) {}

  get id(): string {
    return this.record.id;
  }

  get token(): string {
    return this.record.token;
  }

  get type(): number {
    return this.record.type;
  }

  /** The INTERACTION_CREATE `d` that was sent to the bot. */
  get payload(): Record<string, unknown> {
    return this.record.payload;
  }

  get acknowledged(): boolean {
    return this.record.response !== null;
  }

  /** Callback type of the initial response (4, 5, 6, 7, 8, 9), or null. */
  get responseType(): number | null {
    return this.record.response?.type ?? null;
  }

  /** The bot deferred (type 5 "thinking..." or type 6 deferred update). */
  get deferred(): boolean {
    const type = this.record.response?.type;
    return type === CallbackType.DeferredChannelMessageWithSource || type === CallbackType.DeferredUpdateMessage;
  }

  /** Every callback, edit, follow-up and rejected attempt, in order. */
  history(): InteractionEvent[] {
    return [...this.record.history];
  }

  /** The modal the bot opened (callback type 9), or null. */
  modal(): ModalData | null {
    return this.record.modal ? structuredClone(this.record.modal) : null;
  }

  /** Autocomplete choices the bot responded with, or null if it has not. */
  choices(): AutocompleteChoice[] | null {
    return this.record.choices ? structuredClone(this.record.choices) : null;
  }

  /** The "@original" message as it is now (null before any message-producing response). */
  original(): MessageView | null {
    const message = this.record.originalMessageId
      ? this.world.messagesById.get(this.record.originalMessageId)
      : undefined;
    return message ? viewOf(this.world, message) : null;
  }

  /** Follow-up messages (separate from the original), oldest first, with edits applied. */
  followUps(): MessageView[] {
    return this.record.followUpIds.map((id) => viewOf(this.world, this.world.messagesById.get(id)!));
  }

  private describe(): string {
    const events = this.record.history.map(describeEvent);
    return `interaction ${this.record.id} (type ${this.record.type}); history: ${events.length ? events.join('; ') : 'nothing yet'}`;
  }

  /** Resolves with the first callback the bot sent. */
  async acknowledgement(options: WaitOptions = {}): Promise<{ type: number; at: number }> {
    return this.waitFor(() => this.record.response, {
      ...options,
      description: `the bot to acknowledge ${this.describe()}`,
    });
  }

  /**
   * The final visible reply: the message of a type 4 response, the edited original after a
   * deferral (or the follow-up that filled it), or the updated message of a component update.
   * Rejects if the bot answered with a modal or autocomplete choices instead.
   */
  async reply(options: WaitOptions = {}): Promise<MessageView> {
    return this.waitFor(
      () => {
        const response = this.record.response;
        if (!response) return undefined;
        if (response.type === CallbackType.Modal) {
          throw new Error(`sandbox: the bot answered ${this.record.id} with a modal; use handle.modal()`);
        }
        if (response.type === CallbackType.ApplicationCommandAutocompleteResult) {
          throw new Error(`sandbox: interaction ${this.record.id} is an autocomplete; use handle.choices()`);
        }
        const original = this.record.originalMessageId
          ? this.world.messagesById.get(this.record.originalMessageId)
          : undefined;
        if (!original) return undefined;
        // A deleted reply is final too; resolving (with deleted: true) beats a confusing timeout.
        if (original.deleted) return viewOf(this.world, original);
        if (response.type === CallbackType.DeferredUpdateMessage) {
          const edited = this.record.history.some((e) => e.kind === 'editOriginal' || e.kind === 'deleteOriginal');
          return edited ? viewOf(this.world, original) : undefined;
        }
        return original.loading ? undefined : viewOf(this.world, original);
      },
      { ...options, description: `a visible reply to ${this.describe()}` },
    );
  }

  /**
   * What the member was finally shown: the visible reply, or, when the bot deleted its original
   * answer and followed up instead (a private message after a public "thinking…"), that follow-up.
   */
  async answer(options: WaitOptions = {}): Promise<MessageView> {
    const reply = await this.reply(options);
    if (!reply.deleted) return reply;
    const [first] = await this.waitForFollowUps(1, options);
    return first!;
  }

  /** Waits until at least `count` follow-ups exist; resolves with all of them. */
  async waitForFollowUps(count: number, options: WaitOptions = {}): Promise<MessageView[]> {
    return this.waitFor(() => (this.record.followUpIds.length >= count ? this.followUps() : undefined), {
      ...options,
      description: `${count} follow-up(s) to ${this.describe()}`,
    });
  }

  /** Waits for the bot to open a modal. */
  async waitForModal(options: WaitOptions = {}): Promise<ModalData> {
    return this.waitFor(() => this.modal(), { ...options, description: `a modal for ${this.describe()}` });
  }

  /** Waits for autocomplete choices (only for autocomplete interactions). */
  async waitForChoices(options: WaitOptions = {}): Promise<AutocompleteChoice[]> {
    if (this.record.type !== InteractionType.ApplicationCommandAutocomplete) {
      throw new Error('sandbox: waitForChoices is only for autocomplete interactions');
    }
    return this.waitFor(() => this.choices(), {
      ...options,
      description: `autocomplete choices for ${this.describe()}`,
    });
  }
}
