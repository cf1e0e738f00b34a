/** The public API of the Eventor layer. */
export { EventorClient, type CallMeta, type EventorClientOptions } from './client.js';
export {
  EventorError, ValidationError, InvalidApiKey, AuthenticationFailed, NotFound, RateLimited, Upstream, Unreachable, Timeout, InvalidResponse,
  type EventorErrorCode,
} from './errors.js';
export { INSTANCES, customInstance, isInstanceName, type EventorInstance, type InstanceName } from './instances.js';
export type { CacheOptions, RequestEvent } from './http.js';
export { USER_AGENT } from './http.js';
export {
  OPERATIONS, OPERATION_NAMES, isOperationName, prepareRequest,
  type OperationDef, type OperationName, type OperationParams, type OperationResult, type Operations, type ParseContext,
} from './operations.js';
export type * from './model.js';
