/**
 * Parsers for Eventor native XML (the default format of `/api/...`), one per root element.
 * Each takes the body text and the IANA zone of its Date+Clock values and returns domain types
 * from model.ts, or throws `InvalidResponse` naming what is wrong and where.
 */
import { readRootInfo } from '../xml.js';

import { parseActivity, parseActivityList } from './activities.js';
import { parseCompetitorCountList, parseEntryList } from './entries.js';
import {
  type ParseOptions,
  parseDocumentList,
  parseEntryFeeList,
  parseEvent,
  parseEventClassList,
  parseEventList,
} from './events.js';
import { parseResultList, parseResultListList, parseStartList, parseStartListList } from './lists.js';
import {
  parseCompetitor,
  parseCompetitorList,
  parseExternalLoginUrl,
  parseOrganisation,
  parseOrganisationList,
  parsePerson,
  parsePersonList,
} from './people.js';

export { serializeCompetitor } from './competitor-xml.js';
export type { ParseOptions };
export {
  parseActivity,
  parseActivityList,
  parseCompetitor,
  parseCompetitorCountList,
  parseCompetitorList,
  parseDocumentList,
  parseEntryFeeList,
  parseEntryList,
  parseEvent,
  parseEventClassList,
  parseEventList,
  parseExternalLoginUrl,
  parseOrganisation,
  parseOrganisationList,
  parsePerson,
  parsePersonList,
  parseResultList,
  parseResultListList,
  parseStartList,
  parseStartListList,
};

/** Root element names of the native documents these parsers read. */
export const NATIVE_ROOTS = [
  'EventList',
  'Event',
  'DocumentList',
  'EventClassList',
  'EntryFeeList',
  'Organisation',
  'OrganisationList',
  'PersonList',
  'Person',
  'CompetitorList',
  'Competitor',
  'ExternalLoginUrl',
  'EntryList',
  'CompetitorCountList',
  'StartList',
  'StartListList',
  'ResultList',
  'ResultListList',
  'ActivityList',
  'Activity',
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

/** The parser for each native root, for callers that learn the root from the document. */
export const NATIVE_PARSERS: Record<NativeRoot, (xml: string, options: ParseOptions) => unknown> = {
  EventList: parseEventList,
  Event: parseEvent,
  DocumentList: parseDocumentList,
  EventClassList: parseEventClassList,
  EntryFeeList: parseEntryFeeList,
  Organisation: parseOrganisation,
  OrganisationList: parseOrganisationList,
  PersonList: parsePersonList,
  Person: parsePerson,
  CompetitorList: parseCompetitorList,
  Competitor: parseCompetitor,
  ExternalLoginUrl: parseExternalLoginUrl,
  EntryList: parseEntryList,
  CompetitorCountList: parseCompetitorCountList,
  StartList: parseStartList,
  StartListList: parseStartListList,
  ResultList: parseResultList,
  ResultListList: parseResultListList,
  ActivityList: parseActivityList,
  Activity: parseActivity,
};
