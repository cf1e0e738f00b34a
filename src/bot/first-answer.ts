/**
 * The first answer to an interaction, sent the cheapest way that is still in time. A handler
 * writes its answer with its context's `answer`, as if the router had deferred. When that answer is ready
 * before the handler waited on any I/O (everything came from caches and the database), it goes out
 * as the initial response itself (a reply, or the update of the message a component is on): one
 * request instead of a deferral and an edit, and the member sees it at once. When the handler does
 * wait on I/O (Eventor), the deferral goes out at that moment, well inside Discord's 3 seconds.
 *
 * "Before any I/O" is exactly "before the event loop's next check phase": a handler that only
 * awaits settled promises runs to its answer in microtasks, while one that waits on a socket lets
 * the loop turn, and `setImmediate` fires first.
 */
import {
  type ChatInputCommandInteraction,
  DiscordAPIError,
  type InteractionCallbackResponse,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type InteractionUpdateOptions,
  type Message,
  type MessageComponentInteraction,
  MessageFlags,
  type ModalSubmitInteraction,
  RESTJSONErrorCodes,
} from 'discord.js';
import type { Logger } from '../log/logger.js';
import { OnePerTurn } from '../loop/one-per-turn.js';

type Answerable = ChatInputCommandInteraction | MessageComponentInteraction | ModalSubmitInteraction;

/**
 * How first answers share the event loop. When several interactions arrive together
 * (a burst: a club's channel after a race), every handler's work before its first wait would hold
 * back the others' first answers, and with them Discord's 3-second deadline. So in a burst every
 * interaction is deferred (from the second on at once, the first as soon as the turn shows it was
 * not alone) and the answers follow as edits, rendered one per later turn in the order the
 * interactions came (`#waitingToRender`): each member sees "thinking…" within milliseconds, and an
 * interaction arriving meanwhile is acknowledged before the next answer is rendered
 * (`npm run bench`: ack and answer figures). An interaction alone in its turn goes on at once.
 *
 * Each running bot owns one (`startBot` gives it to its router): two bots in one process (tests,
 * the bench) share no turn, lane or hold, as two bot processes would not.
 */
export class FirstAnswers {
  /** The first answers begun in the current turn of the event loop (null until one begins). */
  #currentTurn: Start[] | null = null;
  /**
   * Handlers of a burst waiting for their turn to render: one per turn of the event loop, so that
   * between two answers the loop reads the sockets again and acknowledges any interaction that
   * arrived meanwhile before it renders the next answer. Each server waits in a lane of its own and
   * the lanes take turns: a server that fires many commands at once (the bot may be in strangers'
   * servers) delays another server's answers by one answer, not by all of its own. And none while
   * deferrals are on their way to Discord: an answer's edit would travel beside them and queue with
   * them on the same connections, and an acknowledgement has Discord's 3 seconds to meet, an answer
   * does not (`npm run bench`: the acknowledgement figures, 25-35 % lower with this hold). A deferral
   * that hangs (Discord slow, a rate limit) holds the answers RENDER_HOLD_MAX_MS at most.
   */
  readonly #waitingToRender = new OnePerTurn<Start>(({ start }) => start(), {
    hold: () => this.#deferralsInFlight.noneLeft(),
    laneOf: ({ lane }) => lane,
  });
  /** Deferrals on their way to Discord; the render hold lasts RENDER_HOLD_MAX_MS at most. */
  readonly #deferralsInFlight = new InFlight(RENDER_HOLD_MAX_MS);
  /** First answers begun and not yet sent (nor given up on): the members waiting for a first sign. */
  readonly #unsent = new InFlight();
  /** What the answers begun here reach of this object (it is theirs alone). */
  readonly #turns: Turns = {
    join: (start) => this.#joinTurn(start),
    deferralSent: () => this.#deferralsInFlight.add(),
    deferralDone: () => this.#deferralsInFlight.done(),
    unsent: () => this.#unsentOne(),
  };

  /**
   * Null when no member waits for a first answer; else a promise that settles once every first
   * answer begun has been sent (or UNSENT_MAX_MS after it began, whatever happens to it). Background
   * work that runs in slices (the live pollers' turns, src/loop/slices.ts) waits on it between two
   * steps, so an acknowledgement never shares the event loop with a board's edit
   * (docs/benchmarks.md, live-ack-p95-during-boards-ms).
   */
  unsent(): Promise<void> | null {
    return this.#unsent.noneLeft();
  }

  /** Counts one first answer as unsent; the function counts it sent (once, whichever comes first). */
  #unsentOne(): () => void {
    this.#unsent.add();
    let counted = true;
    const sent = (): void => {
      if (!counted) return;
      counted = false;
      clearTimeout(late);
      this.#unsent.done();
    };
    const late = setTimeout(sent, UNSENT_MAX_MS);
    late.unref();
    return sent;
  }

  /**
   * The first answer of an interaction, as `kind` declares it; it joins the current turn. Its
   * handler answers through `answer` and waits for `ready` before doing its work.
   */
  begin(interaction: Answerable, kind: FirstAnswerKind, log: Logger): FirstAnswer {
    return new FirstAnswer(interaction, kind, log, this.#turns);
  }

  /** Joins the current turn; how many answers have begun in it, this one included. */
  #joinTurn(start: Start): number {
    if (this.#currentTurn === null) {
      const turn: Start[] = [];
      this.#currentTurn = turn;
      setImmediate(() => {
        this.#currentTurn = null;
        this.#endTurn(turn);
      });
    }
    this.#currentTurn.push(start);
    return this.#currentTurn.length;
  }

  #endTurn(turn: readonly Start[]): void {
    if (turn.length === 1) {
      turn[0]!.start();
      return;
    }
    // The first of a burst learns only now that it was one; the others were deferred on arrival.
    turn[0]!.answer.defer().catch(() => undefined);
    this.#waitingToRender.push(...turn);
  }
}

/**
 * A count of things under way, and a promise that settles once none is left (or `lateMs` after it
 * was first asked for, if given; it then stays settled until none is left).
 */
class InFlight {
  #count = 0;
  #noneLeft: { promise: Promise<void>; wake: () => void } | null = null;

  constructor(private readonly lateMs: number | null = null) {}

  add(): void {
    this.#count++;
  }

  done(): void {
    if (--this.#count > 0) return;
    this.#noneLeft?.wake();
    this.#noneLeft = null;
  }

  /** Null when nothing is under way; else the promise. */
  noneLeft(): Promise<void> | null {
    if (this.#count === 0) return null;
    if (this.#noneLeft === null) {
      let wake!: () => void;
      const promise = new Promise<void>((resolve) => (wake = resolve));
      if (this.lateMs !== null) setTimeout(wake, this.lateMs).unref();
      this.#noneLeft = { promise, wake };
    }
    return this.#noneLeft.promise;
  }
}

/** A handler's go-ahead, with the lane it waits in: its Discord server (or, in a DM, its member). */
interface Start {
  readonly answer: FirstAnswer;
  readonly lane: string;
  readonly start: () => void;
}

/** What a first answer reaches of the `FirstAnswers` it was begun by. */
interface Turns {
  join(start: Start): number;
  deferralSent(): void;
  deferralDone(): void;
  /** Counts a first answer as unsent until the function returned is called. */
  unsent(): () => void;
}

const RENDER_HOLD_MAX_MS = 250;
/** How long a first answer counts as unsent at most (Discord slow, a handler stuck): background work waits no longer. */
const UNSENT_MAX_MS = 250;

/** What the deferral would have been: a reply (ephemeral or not), or the update of the component's message. */
export type FirstAnswerKind = { reply: 'public' | 'ephemeral' } | { update: true };

/**
 * One interaction's first answer. The handler answers through `answer` (never the interaction's own
 * reply methods): the answer goes out as the initial response when nothing was deferred, else as the
 * edit of the deferral, with the visibility the route declared in `kind` either way.
 */
export class FirstAnswer {
  readonly #interaction: Answerable;
  readonly #kind: FirstAnswerKind;
  readonly #log: Logger;
  readonly #turns: Turns;
  #timer: NodeJS.Immediate | null = null;
  #deferral: Promise<void> | null = null;
  #direct = false;
  readonly #ready: Promise<void>;
  #startReady!: () => void;
  /** Counts this answer sent (FirstAnswers.unsent). */
  readonly #sent: () => void;

  /** Begun by `FirstAnswers.begin`, which it joins. */
  constructor(interaction: Answerable, kind: FirstAnswerKind, log: Logger, turns: Turns) {
    this.#interaction = interaction;
    this.#kind = kind;
    this.#log = log;
    this.#turns = turns;
    this.#ready = new Promise((resolve) => (this.#startReady = resolve));
    this.#sent = turns.unsent();
    // A deferral's failure is met by whatever the handler does next (it awaits the same deferral) or by settle().
    const lane = interaction.guildId === null ? `member ${interaction.user.id}` : `server ${interaction.guildId}`;
    if (turns.join({ answer: this, lane, start: () => this.#start() }) > 1) this.defer().catch(() => undefined);
  }

  /** Its turn to render has come: alone in its turn, it is deferred only if the handler waits on I/O. */
  #start(): void {
    if (this.#deferral === null && !this.#direct)
      this.#timer = setImmediate(() => {
        this.#timer = null;
        this.defer().catch(() => undefined);
      });
    this.#startReady();
  }

  /**
   * Resolves when the handler may do its work: after the turn it arrived in, at once when it came
   * alone, else in its own later turn (see `FirstAnswers`).
   */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** Sends the deferral now unless an answer or a deferral went out already. */
  defer(): Promise<void> {
    this.#cancelTimer();
    if (this.#direct) return Promise.resolve();
    if (this.#deferral === null) {
      this.#turns.deferralSent();
      this.#deferral = this.#send(() =>
        'update' in this.#kind
          ? (this.#interaction as MessageComponentInteraction).deferUpdate()
          : this.#interaction.deferReply(this.#kind.reply === 'ephemeral' ? { flags: MessageFlags.Ephemeral } : {}),
      ).finally(this.#turns.deferralDone);
    }
    return this.#deferral;
  }

  /**
   * Once the handler is done (or failed): no deferral is sent any more, and one in flight has
   * settled, so that `deferred` and `replied` say what the member was sent. Rejects when the
   * deferral failed.
   */
  async settle(): Promise<void> {
    this.#cancelTimer();
    try {
      if (this.#deferral) await this.#deferral;
    } finally {
      this.#sent();
    }
  }

  /**
   * The handler's answer: the initial response itself when nothing was deferred yet, else the edit
   * of the deferral once it has gone out (and of the answer, when the handler answers again).
   */
  async answer(options: string | InteractionEditReplyOptions): Promise<Message | undefined> {
    if (this.#deferral === null && !this.#direct) {
      this.#cancelTimer();
      this.#direct = true;
      const body = typeof options === 'string' ? { content: options } : options;
      let sent: InteractionCallbackResponse | undefined;
      await this.#send(async () => {
        if ('update' in this.#kind) {
          sent = await (this.#interaction as MessageComponentInteraction).update({
            ...body,
            withResponse: true,
          } as InteractionUpdateOptions & { withResponse: true });
        } else {
          const { attachments: _kept, ...reply } = body;
          sent = await this.#interaction.reply({
            ...reply,
            ...(this.#kind.reply === 'ephemeral' ? { flags: MessageFlags.Ephemeral } : {}),
            withResponse: true,
          } as InteractionReplyOptions & { withResponse: true });
        }
      });
      return sent?.resource?.message ?? undefined;
    }
    await this.#deferral;
    return this.#interaction.editReply(options);
  }

  /**
   * Sends an initial response. When Discord carried it out but its answer was lost on the way back,
   * discord.js sends it again and meets 40060 "Interaction has already been acknowledged": the
   * first attempt arrived, so the answer goes on as if nothing happened (else the member would be
   * left without it, or on "thinking…" for good).
   */
  async #send(respond: () => Promise<unknown>): Promise<void> {
    try {
      await respond();
    } catch (error) {
      if (!(
        error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged
      ))
        throw error;
      this.#log.warn('the first answer already arrived (its answer was lost); going on');
      const interaction = this.#interaction;
      if (this.#direct) interaction.replied = true;
      else interaction.deferred = true;
      if ('reply' in this.#kind) interaction.ephemeral = this.#kind.reply === 'ephemeral';
    } finally {
      this.#sent();
    }
  }

  #cancelTimer(): void {
    if (this.#timer !== null) clearImmediate(this.#timer);
    this.#timer = null;
  }
}
