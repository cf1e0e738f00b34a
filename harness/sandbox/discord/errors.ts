import { ErrorCode } from './constants.js';

/** One entry of Discord's nested `errors` object: `{ <path...>: { _errors: [{ code, message }] } }`. */
export interface FieldError {
  path: (string | number)[];
  code: string;
  message: string;
}

/**
 * An error a route handler throws to answer with Discord's JSON error shape
 * (`{ code, message, errors? }`, developers/reference.mdx "Error Messages"), so discord.js turns it
 * into a `DiscordAPIError` with the same `.code` and `.status` it would get from Discord.
 */
export class SandboxApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'SandboxApiError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message, code: this.code };
    if (this.fieldErrors.length > 0) body['errors'] = nestErrors(this.fieldErrors);
    return body;
  }
}

/** Builds Discord's nested error tree from flat paths. */
export function nestErrors(errors: FieldError[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const error of errors) {
    let node = root;
    for (const part of error.path) {
      const key = String(part);
      node[key] ??= {};
      const next = node[key] as Record<string, unknown>;
      node = next;
    }
    node['_errors'] ??= [];
    const list = node['_errors'] as { code: string; message: string }[];
    list.push({ code: error.code, message: error.message });
  }
  return root;
}

export function invalidFormBody(errors: FieldError[]): SandboxApiError {
  return new SandboxApiError(400, ErrorCode.InvalidFormBody, 'Invalid Form Body', errors);
}

export const apiErrors = {
  unauthorized: () => new SandboxApiError(401, ErrorCode.General, '401: Unauthorized'),
  notFound: () => new SandboxApiError(404, ErrorCode.General, '404: Not Found'),
  methodNotAllowed: () => new SandboxApiError(405, ErrorCode.General, '405: Method Not Allowed'),
  unknownChannel: () => new SandboxApiError(404, ErrorCode.UnknownChannel, 'Unknown Channel'),
  unknownGuild: () => new SandboxApiError(404, ErrorCode.UnknownGuild, 'Unknown Guild'),
  unknownMember: () => new SandboxApiError(404, ErrorCode.UnknownMember, 'Unknown Member'),
  unknownMessage: () => new SandboxApiError(404, ErrorCode.UnknownMessage, 'Unknown Message'),
  unknownRole: () => new SandboxApiError(404, ErrorCode.UnknownRole, 'Unknown Role'),
  unknownUser: () => new SandboxApiError(404, ErrorCode.UnknownUser, 'Unknown User'),
  unknownWebhook: () => new SandboxApiError(404, ErrorCode.UnknownWebhook, 'Unknown Webhook'),
  unknownCommand: () => new SandboxApiError(404, ErrorCode.UnknownApplicationCommand, 'Unknown application command'),
  unknownInteraction: () => new SandboxApiError(404, ErrorCode.UnknownInteraction, 'Unknown interaction'),
  alreadyAcknowledged: () =>
    new SandboxApiError(400, ErrorCode.InteractionAlreadyAcknowledged, 'Interaction has already been acknowledged.'),
  missingAccess: () => new SandboxApiError(403, ErrorCode.MissingAccess, 'Missing Access'),
  missingPermissions: () => new SandboxApiError(403, ErrorCode.MissingPermissions, 'Missing Permissions'),
  cannotEditOthers: () =>
    new SandboxApiError(403, ErrorCode.CannotEditOtherUsersMessage, 'Cannot edit a message authored by another user'),
  emptyMessage: () => new SandboxApiError(400, ErrorCode.CannotSendEmptyMessage, 'Cannot send an empty message'),
  dmsClosed: () =>
    new SandboxApiError(403, ErrorCode.CannotSendMessagesToThisUser, 'Cannot send messages to this user'),
  invalidWebhookToken: () => new SandboxApiError(401, ErrorCode.InvalidWebhookToken, 'Invalid Webhook Token'),
  threadArchived: () => new SandboxApiError(400, ErrorCode.ThreadArchived, 'Thread is archived'),
  threadAlreadyCreated: () =>
    new SandboxApiError(
      400,
      ErrorCode.ThreadAlreadyCreatedForMessage,
      'A thread has already been created for this message',
    ),
  tooManyAttachments: (max: number) =>
    new SandboxApiError(
      400,
      ErrorCode.MaximumAttachments,
      `Maximum number of attachments in a message reached (${max})`,
    ),
  fileTooLarge: () => new SandboxApiError(400, ErrorCode.FileTooLarge, 'File uploaded exceeds the maximum size'),
  requestTooLarge: () => new SandboxApiError(413, ErrorCode.RequestEntityTooLarge, 'Request entity too large'),
  uploadedFileNotFound: () => new SandboxApiError(400, ErrorCode.UploadedFileNotFound, 'Uploaded file not found'),
  badRequest: (message: string) => new SandboxApiError(400, ErrorCode.General, message),
};
