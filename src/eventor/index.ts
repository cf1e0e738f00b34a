/** The public API of the Eventor layer. */
export { type CallMeta, EventorClient, type EventorClientOptions } from './client.js';
export {
  AuthenticationFailed,
  EventorError,
  type EventorErrorCode,
  InvalidApiKey,
  InvalidResponse,
  NotFound,
  RateLimited,
  Timeout,
  Unreachable,
  Upstream,
  ValidationError,
} from './errors.js';
export type { CacheOptions, RequestEvent } from './http.js';
export { USER_AGENT } from './http.js';
export { customInstance, type EventorInstance, INSTANCES, type InstanceName, isInstanceName } from './instances.js';
export type * from './model.js';
export {
  isOperationName,
  OPERATION_NAMES,
  OPERATIONS,
  type OperationDef,
  type OperationName,
  type OperationParams,
  type OperationResult,
  type Operations,
  type ParseContext,
  prepareRequest,
} from './operations.js';
