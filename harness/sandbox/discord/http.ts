import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrors, SandboxApiError } from './errors.js';
import type { Faults } from './faults.js';
import type { GlobalBucket } from './global-limit.js';

/** A file part of a multipart request (`files[n]`). */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface RouteContext {
  method: string;
  /** Decoded path below `/api/v10` (`%40original` arrives decoded as `@original`). */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  files: UploadedFile[];
  /** `X-Audit-Log-Reason`, percent-decoded as Discord does (discord.js sends it URI-encoded). */
  auditLogReason?: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export interface Route {
  method: string;
  /** `/channels/:channelId/messages`; `:name` segments become params. */
  template: string;
  /** Bot-token routes; interaction callbacks and webhook-token routes are unauthenticated. */
  auth: boolean;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export const ok = (body: unknown): RouteResult => ({ status: 200, body });
export const noContent = (): RouteResult => ({ status: 204 });

/** One REST call as the test sees it; the Authorization header value is never kept. */
export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  /** Route template, or null if no route matched. */
  route: string | null;
  query: string;
  status: number;
  /** Discord JSON error code for failures. */
  code?: number;
  /** 'bot' = valid bot token, 'none' = no header, 'invalid' = wrong token. */
  auth: 'bot' | 'none' | 'invalid';
  /** Parsed JSON body (or payload_json of a multipart body). */
  body?: unknown;
  files?: string[];
  /** The decoded `X-Audit-Log-Reason`, when the request carried one. */
  auditLogReason?: string;
  /** With a lost-answer fault: what the route did answer before the answer was lost. */
  lostAnswer?: { status: number; body: unknown };
}

const MAX_BODY_BYTES = 26 * 1024 * 1024;

interface CompiledRoute extends Route {
  parts: string[];
}

function compile(route: Route): CompiledRoute {
  return { ...route, parts: route.template.split('/').filter(Boolean) };
}

function match(route: CompiledRoute, segments: string[]): Record<string, string> | null {
  if (route.parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const part = route.parts[i]!;
    const segment = segments[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return null;
  }
  return params;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw apiErrors.requestTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** JSON or multipart (`payload_json` + `files[n]`, what discord.js sends with attachments). */
async function parseBody(req: IncomingMessage): Promise<{ body: unknown; files: UploadedFile[] }> {
  const raw = await readBody(req);
  if (raw.length === 0) return { body: undefined, files: [] };
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    // undici's Response implements a spec-compliant multipart parser; no extra dependency needed.
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    let body: Record<string, unknown> = {};
    const files: UploadedFile[] = [];
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = { ...body, ...(parseJson(value) as Record<string, unknown>) };
        else body[field] = value;
      } else {
        files.push({
          field,
          filename: value.name,
          contentType: value.type || 'application/octet-stream',
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
    }
    return { body, files };
  }
  return { body: parseJson(raw.toString('utf8')), files: [] };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SandboxApiError(400, 50109, 'The request body contains invalid JSON.');
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  // discord.js only JSON-decodes when Content-Type starts with application/json (docs/discord.md#json-responses).
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(text);
}

export interface RestOptions {
  routes: Route[];
  token: () => string;
  faults: Faults;
  now: () => number;
  log: (entry: RequestLogEntry) => void;
  /** Discord's global rate limit on bot-token requests; null: none (a sandbox for one test's purpose). */
  globalBucket: GlobalBucket | null;
}

/** The `/api/v10` request handler: auth, faults, body parsing, routing, Discord-shaped errors, logging. */
export function createRestHandler(
  options: RestOptions,
): (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => Promise<void> {
  const routes = options.routes.map(compile);
  return async (req, res, rawPath, query) => {
    const method = (req.method ?? 'GET').toUpperCase();
    let segments: string[];
    try {
      segments = rawPath
        .split('/')
        .filter(Boolean)
        .map((s) => decodeURIComponent(s));
    } catch {
      segments = rawPath.split('/').filter(Boolean);
    }
    const path = `/${segments.join('/')}`;
    const header = req.headers.authorization;
    const auth: RequestLogEntry['auth'] =
      header === undefined ? 'none' : header === `Bot ${options.token()}` ? 'bot' : 'invalid';
    const entry: RequestLogEntry = {
      at: options.now(),
      method,
      path,
      route: null,
      query: query.toString(),
      status: 0,
      auth,
    };
    let status = 500;
    let body: unknown;
    let headers: Record<string, string> = {};
    try {
      const candidates = routes
        .map((route) => ({ route, params: match(route, segments) }))
        .filter((c): c is { route: CompiledRoute; params: Record<string, string> } => c.params !== null);
      const found = candidates.find((c) => c.route.method === method);
      if (found) entry.route = found.route.template;
      // Only requests made with the bot token count; interaction-token requests carry none.
      const waitSeconds = auth === 'bot' ? (options.globalBucket?.take() ?? null) : null;
      if (waitSeconds !== null) {
        status = 429;
        body = { message: 'You are being rate limited.', retry_after: Number(waitSeconds.toFixed(3)), global: true };
        // The header in whole seconds, as Discord sends it (discord.js waits by the header).
        headers = {
          'Retry-After': String(Math.max(1, Math.ceil(waitSeconds))),
          'X-RateLimit-Global': 'true',
          'X-RateLimit-Scope': 'global',
        };
        entry.code = 0;
        await readBody(req).catch(() => undefined);
        return;
      }
      let lostAnswer: number | null = null;
      let slowAnswerMs = 0;
      for (const fault of options.faults.take(method, path, entry.route)) {
        if (fault.kind === 'delay') await sleep(fault.ms);
        else if (fault.kind === 'holdTogether') await fault.gathering.arrive();
        else if (fault.kind === 'lostAnswer') lostAnswer = fault.status;
        else if (fault.kind === 'slowAnswer') slowAnswerMs = fault.ms;
        else if (fault.kind === 'serverError') {
          throw new SandboxApiError(fault.status, 0, `${fault.status}: Sandbox injected server error`);
        } else {
          status = 429;
          body = { message: 'You are being rate limited.', retry_after: fault.retryAfterSeconds, global: fault.global };
          headers = {
            'Retry-After': String(fault.retryAfterSeconds),
            'X-RateLimit-Scope': fault.global ? 'global' : 'user',
            ...(fault.global ? { 'X-RateLimit-Global': 'true' } : {}),
          };
          // Drain the body so the client sees a clean response.
          await readBody(req).catch(() => undefined);
          return;
        }
      }
      if (!found) {
        await readBody(req).catch(() => undefined);
        throw candidates.length > 0 ? apiErrors.methodNotAllowed() : apiErrors.notFound();
      }
      if (found.route.auth && auth !== 'bot') {
        await readBody(req).catch(() => undefined);
        throw apiErrors.unauthorized();
      }
      const parsed = await parseBody(req);
      const reason = auditLogReason(req);
      if (reason !== undefined) entry.auditLogReason = reason;
      if (parsed.body !== undefined) entry.body = parsed.body;
      if (parsed.files.length > 0) entry.files = parsed.files.map((file) => file.filename);
      const result = await found.route.handle({
        method,
        path,
        params: found.params,
        query,
        body: parsed.body,
        files: parsed.files,
        ...(reason !== undefined ? { auditLogReason: reason } : {}),
      });
      status = result.status;
      body = result.body;
      if (slowAnswerMs > 0) await answerLater(res, slowAnswerMs);
      if (lostAnswer !== null) {
        // Done, but the client never hears of it.
        entry.lostAnswer = { status, body };
        throw new SandboxApiError(lostAnswer, 0, `${lostAnswer}: Sandbox injected lost answer`);
      }
    } catch (error) {
      if (error instanceof SandboxApiError) {
        status = error.status;
        body = error.body();
        entry.code = error.code;
      } else {
        // A sandbox bug: report it like Discord's 500 and keep the message for the test log.
        status = 500;
        body = { message: `500: Internal Server Error (${(error as Error).message})`, code: 0 };
        entry.code = 0;
      }
    } finally {
      entry.status = status;
      options.log(entry);
      if (!res.headersSent) send(res, status, body, headers);
    }
  };
}

/** The audit-log reason header, percent-decoded; left as sent when it is not valid percent-encoding. */
function auditLogReason(req: IncomingMessage): string | undefined {
  const raw = req.headers['x-audit-log-reason'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Waits `ms`, or less if the client hangs up first; the timer never keeps the process alive. */
function answerLater(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
