import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { GatewayOp } from './constants.js';
import { dispatchGuildId, onShard, parseShard, type Sharding, type ShardSpec } from './shards.js';
import type { DispatchEvent, World } from './world.js';

/**
 * The gateway side: HELLO → IDENTIFY → READY + GUILD_CREATE per guild, heartbeat ACKs, RESUME with
 * replay, op 8 member chunks, and every later dispatch (INTERACTION_CREATE, CHANNEL_*, ...), each
 * only to the sessions whose shard holds its guild (docs/discord.md#sharding).
 * Plain JSON text frames: discord.js accepts them even when it asked for zlib-stream (docs/discord.md#compression).
 */

interface Session {
  id: string;
  intents: number;
  /** `[shard_id, num_shards]` from IDENTIFY; `[0, 1]` when it sent none. */
  shard: ShardSpec;
  seq: number;
  socket: WebSocket | null;
  /** Recent dispatches for RESUME replay (bounded). */
  buffer: { s: number; frame: string }[];
}

/** One inbound frame (`op` and payload), kept for tests that assert on what the bot sent. */
export interface GatewayFrame {
  at: number;
  op: number;
  d: unknown;
}

export interface GatewayOptions {
  world: World;
  token: () => string;
  gatewayUrl: () => string;
  heartbeatIntervalMs: number;
  now: () => number;
  sharding: Sharding;
  /** An IDENTIFY found no session start left: Discord resets the bot's token. */
  onStartsExhausted: () => void;
}

const REPLAY_BUFFER = 1000;

export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly sockets = new Set<WebSocket>();
  readonly frames: GatewayFrame[] = [];
  private readonly onDispatch = (event: DispatchEvent): void => this.broadcast(event);

  constructor(private readonly options: GatewayOptions) {
    options.world.on('dispatch', this.onDispatch);
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req));
  }

  /**
   * Sessions that completed IDENTIFY and currently have an open socket; with a guild id (null for
   * DMs), only those whose shard receives that guild's events.
   */
  connectedSessions(guildId?: string | null): number {
    return [...this.sessions.values()].filter(
      (s) => s.socket?.readyState === WebSocket.OPEN && (guildId === undefined || onShard(s.shard, guildId)),
    ).length;
  }

  /** Close every bot connection with a resumable code, so clients reconnect and RESUME. */
  dropConnections(code = 4000): void {
    for (const socket of this.sockets) socket.close(code, 'sandbox: connection dropped');
  }

  /**
   * Close every socket with 4004 (Authentication failed): discord.js treats it as unrecoverable,
   * so a client the test forgot to destroy stops instead of reconnecting forever
   * (docs/discord.md#stopping-a-client).
   */
  async close(graceMs = 250): Promise<void> {
    this.options.world.off('dispatch', this.onDispatch);
    const open = [...this.sockets];
    const closed = open.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) resolve();
          else socket.once('close', () => resolve());
        }),
    );
    for (const socket of open) if (socket.readyState === WebSocket.OPEN) socket.close(4004, 'sandbox closed');
    await Promise.race([Promise.all(closed), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    this.wss.close();
  }

  private accept(ws: WebSocket, req: IncomingMessage): void {
    this.sockets.add(ws);
    const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
    if ((query.get('encoding') ?? 'json') !== 'json') {
      ws.close(4002, 'sandbox supports encoding=json only');
      return;
    }
    let session: Session | null = null;
    ws.on('close', (code) => {
      this.sockets.delete(ws);
      if (session?.socket !== ws) return;
      session.socket = null;
      // A normal close (client.destroy()) ends the session like on Discord: no RESUME, no more buffering.
      if (code === 1000 || code === 1001) this.sessions.delete(session.id);
    });
    ws.on('error', () => undefined);
    ws.on('message', (raw) => {
      let packet: { op?: number; d?: unknown };
      try {
        packet = JSON.parse(String(raw)) as { op?: number; d?: unknown };
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      const op = Number(packet.op);
      this.frames.push({
        at: this.options.now(),
        op,
        d: op === GatewayOp.Identify || op === GatewayOp.Resume ? redactToken(packet.d) : packet.d,
      });
      switch (op) {
        case GatewayOp.Heartbeat:
          this.send(ws, { op: GatewayOp.HeartbeatAck });
          break;
        case GatewayOp.Identify:
          session = this.identify(ws, packet.d as IdentifyData);
          break;
        case GatewayOp.Resume:
          session = this.resume(ws, packet.d as { token?: string; session_id?: string; seq?: number });
          break;
        case GatewayOp.RequestGuildMembers:
          if (session) this.requestMembers(session, packet.d as MembersRequest);
          break;
        case GatewayOp.PresenceUpdate:
          break;
        default:
          if (!Number.isInteger(op)) ws.close(4001, 'Unknown opcode.');
      }
    });
    this.send(ws, { op: GatewayOp.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs } });
  }

  private identify(ws: WebSocket, d: IdentifyData): Session | null {
    if (d?.token !== this.options.token()) {
      // 4004 is unrecoverable for discord.js: it stops instead of reconnecting forever.
      ws.close(4004, 'Authentication failed.');
      return null;
    }
    const { world, sharding } = this.options;
    const shard = parseShard(d.shard);
    if (!sharding.admitIdentify(shard?.[0] ?? 0, performance.now())) {
      // Too many IDENTIFYs in one 5 s bucket: not resumable, try again later (no session start used).
      this.send(ws, { op: GatewayOp.InvalidSession, d: false });
      return null;
    }
    if (!sharding.takeStart()) {
      // Discord ends every session of the bot and resets its token; the old one now fails as any wrong token does.
      this.options.onStartsExhausted();
      this.endAllSessions(4004, 'Authentication failed.');
      return null;
    }
    if (!shard) {
      ws.close(4010, 'Invalid shard.');
      return null;
    }
    const guildIds = world.botGuildIds().filter((id) => onShard(shard, id));
    if (guildIds.length > sharding.guildsPerShard) {
      ws.close(4011, 'Sharding required.');
      return null;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents: Number(d.intents ?? 0),
      shard,
      seq: 0,
      socket: null,
      buffer: [],
    };
    this.sessions.set(session.id, session);
    // READY's guild list and application are mandatory for discord.js (docs/discord.md#ready-and-guild_create).
    this.sendDispatch(session, ws, 'READY', {
      v: 10,
      user: { ...world.apiUser(world.botUser.id), verified: true, mfa_enabled: false },
      guilds: guildIds.map((id) => ({ id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.options.gatewayUrl(),
      // READY carries `shard` only when IDENTIFY did.
      ...(d.shard === undefined || d.shard === null ? {} : { shard: [...shard] }),
      application: { id: world.applicationId, flags: 0 },
      user_settings: {},
      relationships: [],
      private_channels: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
    });
    // A guild in an outage is announced by GUILD_DELETE with `unavailable: true` instead
    // (events/gateway-events.mdx "Guild Create": "Guilds that are unavailable due to an outage will send a Guild Delete event").
    for (const id of guildIds) {
      if (world.guild(id).unavailable) this.sendDispatch(session, ws, 'GUILD_DELETE', { id, unavailable: true });
      else if (!world.guildCreateHeld(id)) this.sendDispatch(session, ws, 'GUILD_CREATE', world.apiGuildCreate(id));
    }
    // Only now does the session receive live dispatches, so nothing overtakes READY.
    session.socket = ws;
    return session;
  }

  private resume(ws: WebSocket, d: { token?: string; session_id?: string; seq?: number }): Session | null {
    const session = this.sessions.get(d?.session_id ?? '');
    if (d?.token !== this.options.token() || !session) {
      this.send(ws, { op: GatewayOp.InvalidSession, d: false });
      return null;
    }
    const since = Number(d.seq ?? 0);
    for (const entry of session.buffer) if (entry.s > since) ws.send(entry.frame);
    session.socket = ws;
    this.sendDispatch(session, ws, 'RESUMED', {});
    return session;
  }

  private requestMembers(session: Session, d: MembersRequest): void {
    const { world } = this.options;
    const guildIds = Array.isArray(d?.guild_id) ? d.guild_id : [d?.guild_id ?? ''];
    for (const guildId of guildIds) {
      // Only the asking session's shard's guilds are answered (inferred, docs/discord.md#sharding).
      if (!world.guilds.has(guildId) || !onShard(session.shard, guildId)) continue;
      const wanted = d.user_ids === undefined ? null : new Set(Array.isArray(d.user_ids) ? d.user_ids : [d.user_ids]);
      const query = (d.query ?? '').toLowerCase();
      let members = world.guildMembers(guildId).filter((m) => {
        if (wanted) return wanted.has(m.userId);
        const user = world.users.get(m.userId);
        return !query || (user?.username.toLowerCase().startsWith(query) ?? false);
      });
      if (!wanted && d.limit) members = members.slice(0, d.limit);
      const found = new Set(members.map((m) => m.userId));
      this.sendDispatch(session, session.socket, 'GUILD_MEMBERS_CHUNK', {
        guild_id: guildId,
        members: members.map((m) => world.apiMember(guildId, m.userId)),
        chunk_index: 0,
        chunk_count: 1,
        not_found: wanted ? [...wanted].filter((id) => !found.has(id)) : [],
        ...(d.nonce !== undefined ? { nonce: d.nonce } : {}),
      });
    }
  }

  /** Close every socket and forget every session, so none can RESUME. */
  private endAllSessions(code: number, reason: string): void {
    this.sessions.clear();
    for (const socket of this.sockets) if (socket.readyState === WebSocket.OPEN) socket.close(code, reason);
  }

  private broadcast(event: DispatchEvent): void {
    const guildId = dispatchGuildId(event.t, event.d);
    for (const session of this.sessions.values()) {
      if (!onShard(session.shard, guildId)) continue;
      if (event.intents !== 0 && (session.intents & event.intents) === 0) continue;
      // Sessions without a socket still sequence and buffer, so a RESUME replays what they missed.
      this.sendDispatch(session, session.socket, event.t, event.d);
    }
  }

  private sendDispatch(session: Session, ws: WebSocket | null, t: string, d: unknown): void {
    session.seq += 1;
    const frame = JSON.stringify({ op: GatewayOp.Dispatch, t, s: session.seq, d });
    session.buffer.push({ s: session.seq, frame });
    if (session.buffer.length > REPLAY_BUFFER) session.buffer.shift();
    if (ws?.readyState === WebSocket.OPEN) ws.send(frame);
  }

  private send(ws: WebSocket, payload: unknown): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(payload));
  }
}

interface IdentifyData {
  token?: string;
  intents?: number;
  shard?: unknown;
}

interface MembersRequest {
  guild_id?: string | string[];
  query?: string;
  limit?: number;
  user_ids?: string | string[];
  nonce?: string;
}

function redactToken(d: unknown): unknown {
  if (!d || typeof d !== 'object') return d;
  return { ...(d as Record<string, unknown>), token: '[redacted]' };
}
