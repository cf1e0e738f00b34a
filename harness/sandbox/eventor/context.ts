/** What a sandbox route sees and returns, and the error replies the real service sends. */
import type { SandboxClub, SandboxDataset, SandboxEvent } from './dataset.js';
import type { LoginStore } from './login.js';
import type { NativeContext } from './native-xml.js';
import { BadRequest, checkId, type Query } from './params.js';
import { stableHash } from './prng.js';
import type { XmlOut } from './xml-out.js';

export interface RequestContext {
  method: string;
  /** Path segments after `/api`, original case (e.g. ['event', '30001']). */
  segments: string[];
  query: Query;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  dataset: SandboxDataset;
  /** The club of the ApiKey header; null when the route does not require one. */
  club: SandboxClub | null;
  native: NativeContext;
  now: () => Date;
  logins: LoginStore;
  /** e.g. `http://127.0.0.1:PORT` (no `/api`). */
  origin: string;
}

export interface Reply {
  status: number;
  contentType: string;
  /** The body in chunks (big lists are serialised in ~64 kB pieces). */
  chunks: string[];
  headers?: Record<string, string>;
  /** Whether the body is an XML document (only those get the truncate/malformed faults' XML treatment). */
  xml: boolean;
}

export const XML_TYPE = 'application/xml; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

export function xmlReply(out: XmlOut | string[], status = 200): Reply {
  return { status, contentType: XML_TYPE, chunks: Array.isArray(out) ? out : out.finish(), xml: true };
}

export function htmlReply(status: number, title: string, message: string): Reply {
  const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${message}</p></body></html>\n`;
  return { status, contentType: HTML_TYPE, chunks: [body], xml: false };
}

/** Thrown by routes; turned into the matching HTML reply by the server. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function forbidden(): HttpError {
  return new HttpError(
    403,
    'You do not have permission to view this directory or page using the credentials that you supplied.',
  );
}

export function notFound(what: string): HttpError {
  return new HttpError(404, `${what} was not found.`);
}

export function errorReply(status: number, message: string): Reply {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    401: '401 - Unauthorized: Access is denied due to invalid credentials.',
    403: '403 - Forbidden',
    404: '404 - File or directory not found.',
    405: '405 - Method Not Allowed',
    500: 'Runtime Error',
  };
  return htmlReply(status, titles[status] ?? `${status}`, escapeHtml(message));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Stable ids for ResultId/StartId, which the domain model does not keep. */
export function syntheticId(kind: string, ...parts: (string | number | null)[]): string {
  return String(1_000_000 + (stableHash(`${kind}|${parts.join('|')}`) % 8_999_999));
}

/** The caller's own club must be the one named (docs/eventor.md#own-organisation-rules). */
export function requireOwn(ctx: RequestContext, organisationId: string | undefined): string {
  if (organisationId === undefined) throw new HttpError(400, "The parameter 'organisationId' is required.");
  if (!ctx.club || ctx.club.id !== organisationId) throw forbidden();
  return organisationId;
}

/** The event named by a required id parameter: 400 when missing or malformed, 404 when unknown. */
export function eventById(ctx: RequestContext, id: string | undefined, name = 'eventId'): SandboxEvent {
  if (id === undefined) throw new BadRequest(`The parameter '${name}' is required.`);
  const ev = ctx.dataset.event(checkId(id, name));
  if (!ev) throw notFound(`Event ${id}`);
  return ev;
}
