/**
 * The sandbox LiveResultat (docs/live-results.md): both APIs over the sandbox Eventor's races as
 * they run on the sandbox clock, with the documented quirks and injectable faults.
 */
export { type LiveFaultKind, type LiveFaultRule, LiveFaults } from './faults.js';
export { DEFAULT_LIVE_OPTIONS, type LiveOptions } from './options.js';
export {
  FIRST_COMPETITION_ID,
  LIVE_TIME_ZONE,
  type LiveClassRecord,
  type LiveCompetitionRecord,
  type LiveRaceRecord,
  type LiveRunnerRecord,
} from './races.js';
export {
  type LiveRequest,
  type SandboxLiveOptions,
  type SandboxLiveResultat,
  startSandboxLiveResultat,
} from './server.js';
export { LiveWorld } from './world.js';
