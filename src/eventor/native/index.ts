/**
 * Parsers for Eventor native XML (the default format of `/api/...`), one per root element.
 * Each takes the body text and the IANA zone of its Date+Clock values and returns domain types
 * from model.ts, or throws `InvalidResponse` naming what is wrong and where.
 */
import { readRootInfo } from '../xml.js';

export type { ParseOptions } from './events.js';
export { parseEventList, parseEvent, parseDocumentList, parseEventClassList, parseEntryFeeList } from './events.js';
export {
  parseOrganisation, parseOrganisationList, parsePersonList, parsePerson, parseCompetitorList, parseCompetitor,
  parseExternalLoginUrl,
} from './people.js';
export { parseEntryList, parseCompetitorCountList } from './entries.js';
export { parseStartList, parseStartListList, parseResultList, parseResultListList } from './lists.js';
export { parseActivityList, parseActivity } from './activities.js';
export { serializeCompetitor } from './competitor-xml.js';

/** Root element names of the native documents these parsers read. */
export const NATIVE_ROOTS = [
  'EventList', 'Event', 'DocumentList', 'EventClassList', 'EntryFeeList', 'Organisation', 'OrganisationList',
  'PersonList', 'Person', 'CompetitorList', 'Competitor', 'ExternalLoginUrl', 'EntryList', 'CompetitorCountList',
  'StartList', 'StartListList', 'ResultList', 'ResultListList', 'ActivityList', 'Activity',
] as const;
export type NativeRoot = (typeof NATIVE_ROOTS)[number];

const ROOTS: ReadonlySet<string> = new Set(NATIVE_ROOTS);

/**
 * The native root of a document, read from its first start tag, or null when the text is not
 * XML, has another root, or is IOF XML 3.0 (which shares root names such as `EventList` but
 * declares a default namespace).
 */
export function detectNativeRoot(xml: string): NativeRoot | null {
  const root = readRootInfo(xml);
  if (root === null || (root.namespace !== null && root.namespace !== '')) return null;
  return ROOTS.has(root.name) ? (root.name as NativeRoot) : null;
}
