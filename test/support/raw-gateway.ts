import { WebSocket } from 'ws';
import { eventually } from './eventually.js';

/**
 * A minimal raw gateway client for the sandbox Discord's wire tests, where discord.js would hide
 * the wire: it collects every frame and the close code and reason, and waits for a frame (bounded
 * in time, polled).
 */

export interface GatewayFrame {
  op: number;
  t?: string;
  s?: number;
  d?: Record<string, unknown> | boolean | null;
}

/** How long a wait for a frame or the close holds before it fails the test. */
const WAIT_MS = 5_000;

export class RawGateway {
  readonly frames: GatewayFrame[] = [];
  closeCode: number | null = null;
  closeReason = '';

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.frames.push(JSON.parse(String(raw)) as GatewayFrame));
    ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = String(reason);
    });
  }

  /** Connected, with the HELLO received (it stays in `frames`). */
  static async open(url: string): Promise<RawGateway> {
    const ws = new WebSocket(`${url}?v=10&encoding=json`);
    const gateway = new RawGateway(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await gateway.next((f) => f.op === 10, 'HELLO');
    return gateway;
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  /** IDENTIFY with the guilds, guild messages and direct messages intents, and `extra` fields (a shard). */
  identify(token: string, extra: Record<string, unknown> = {}): void {
    this.send(2, { token, intents: 1 | (1 << 9) | (1 << 12), properties: {}, ...extra });
  }

  /** The first frame (received so far or later) that matches. */
  next(predicate: (f: GatewayFrame) => boolean, what = 'a matching frame'): Promise<GatewayFrame> {
    return eventually(async () => this.frames.find(predicate), {
      timeoutMs: WAIT_MS,
      description: `${what} (got ${this.frames.map((f) => f.t ?? f.op).join(', ')})`,
    });
  }

  /** The close code, once the socket has closed. */
  closed(): Promise<number> {
    return eventually(async () => this.closeCode ?? undefined, {
      timeoutMs: WAIT_MS,
      description: 'the socket to close',
    });
  }

  dispatched(t: string): GatewayFrame[] {
    return this.frames.filter((f) => f.t === t);
  }

  close(): void {
    this.ws.terminate();
  }
}
