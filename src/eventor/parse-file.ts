/**
 * Reads an XML file of either kind Eventor speaks: its native XML (recognised from the root
 * element) or IOF XML 3.0 (recognised from the namespace), and returns the domain objects: in
 * full for lists, as a summary for the other IOF documents a club meets (entries, classes,
 * events, courses).
 */

import { InvalidResponse } from './errors.js';
import { decodeXmlBytes } from './iof/decode.js';
import { detectIofDocument } from './iof/detect.js';
import { isSummarisedDocument, parseIofDocument, SUMMARISED_DOCUMENTS, summariseIofDocument } from './iof/index.js';
import * as native from './native/index.js';

/** What `parse` reads, for its messages and the README. */
export const READABLE_FILES = `Eventor's native XML lists, IOF XML 3.0 ResultList and StartList (in full) and ${SUMMARISED_DOCUMENTS.join(', ')} (a summary)`;

export interface ParsedFile {
  format: 'eventor-native' | 'iof-xml-3.0';
  root: string;
  data: unknown;
}

/**
 * `timeZone` is the zone of times written without one: Eventor native files from SE/NO are in
 * local time (the default here, Europe/Stockholm), AU files in UTC.
 */
export function parseXmlFile(bytes: Uint8Array, options: { timeZone?: string } = {}): ParsedFile {
  const text = decodeXmlBytes(bytes);
  // The root element decides (its namespace, or IOF 2's version marker), not a mention further on.
  const info = detectIofDocument(text);
  if (info.version === '3.0' && isSummarisedDocument(info.rootName)) {
    return {
      format: 'iof-xml-3.0',
      root: info.rootName,
      data: summariseIofDocument(text, options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    };
  }
  if (info.version === '3.0' && info.root === 'other') {
    throw new InvalidResponse(`IOF XML 3.0 ${info.rootName ?? '?'} is not read`);
  }
  if (info.version !== null) {
    const parsed = parseIofDocument(text, options.timeZone === undefined ? {} : { timeZone: options.timeZone });
    return { format: 'iof-xml-3.0', root: parsed.kind, data: parsed.list };
  }
  const root = native.detectNativeRoot(text);
  if (root === null)
    throw new InvalidResponse(
      info.rootName === null
        ? 'not an XML document Eventor sends'
        : `<${info.rootName}> is neither an Eventor native list nor IOF XML 3.0`,
    );
  return {
    format: 'eventor-native',
    root,
    data: native.NATIVE_PARSERS[root](text, { timeZone: options.timeZone ?? 'Europe/Stockholm' }),
  };
}
