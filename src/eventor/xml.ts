/**
 * The one XML reader for Eventor native documents, plus small path-aware accessors over the
 * tree it produces. Every problem with the body (not XML, truncated, malformed, wrong root,
 * something we rely on missing) becomes an `InvalidResponse` naming where.
 */
import { XMLParser } from 'fast-xml-parser';
import { InvalidResponse } from './errors.js';

/**
 * Elements that can repeat (wire notes 5.3, extended from the XSD). Only these become arrays;
 * the accessors below also accept a single object where an array is possible, so a missing
 * name here costs correctness nowhere, only a tiny bit of speed.
 */
const NATIVE_ARRAY_TAGS: ReadonlySet<string> = new Set([
  'Event',
  'EventRace',
  'OrganisationId',
  'ClassResult',
  'PersonResult',
  'TeamResult',
  'TeamMemberResult',
  'SplitTime',
  'Entry',
  'EntryClass',
  'CCard',
  'CCardId',
  'EventClass',
  'ClassRaceInfo',
  'ClassEntryFee',
  'Document',
  'Organisation',
  'Person',
  'Given',
  'Name',
  'HashTableEntry',
  'ResultList',
  'StartList',
  'ClassStart',
  'PersonStart',
  'TeamStart',
  'TeamMemberStart',
  'RaceResult',
  'RaceStart',
  'CompetitorCount',
  'ClassCompetitorCount',
  'OrganisationCompetitorCount',
  'EntryFee',
  'Activity',
  'ActivityRegistration',
  'ActivityAttribute',
  'AttributeValue',
  'Value',
  'Competitor',
  'DisciplineId',
  'ClassTypeId',
  'PunchingUnitType',
  'EventOfficial',
  'AlternativeDates',
  'EntryBreak',
  'WebURL',
  'Address',
  'Tele',
  'Role',
  'ExternalPersonId',
  'PreSelectedClass',
  'EventRaceId',
  'EntryEntryFee',
  'TeamCompetitor',
  'EventAttribute',
  'EventAttributeId',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  removeNSPrefix: true,
  processEntities: true,
  // Numeric character references (&#229;) are otherwise left undecoded.
  htmlEntities: true,
  // A matcher instead of a jPath string per callback: the string is built for every element otherwise.
  jPath: false,
  isArray: (name: string, _jPath: unknown, _isLeaf: boolean, isAttribute?: boolean) =>
    isAttribute !== true && NATIVE_ARRAY_TAGS.has(name),
});

/** A parsed element: an object of children and `@_` attributes, or a string for text-only and empty elements. */
export type XmlNode = Record<string, unknown>;
export type XmlValue = XmlNode | string | undefined;

interface RootInfo {
  /** Local name (namespace prefix removed). */
  name: string;
  /** The default namespace the root declares, if any (IOF XML 3.0 roots have one; native roots none). */
  namespace: string | null;
}

const BOM = 0xfeff;

function firstContentIndex(xml: string): number {
  let i = 0;
  if (xml.charCodeAt(0) === BOM) i = 1;
  while (i < xml.length) {
    const c = xml.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

const NAME_END = /[\s/>]/;

/**
 * The root element's name and default namespace, read from the first start tag without parsing
 * the document. Null when the text does not look like XML at all.
 */
export function readRootInfo(xml: string): RootInfo | null {
  let i = firstContentIndex(xml);
  if (xml.charCodeAt(i) !== 60 /* < */) return null;
  // Skip the declaration, processing instructions, comments and a doctype before the root.
  for (;;) {
    if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i + 2);
      if (end === -1) return null;
      i = end + 2;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end === -1) return null;
      i = end + 3;
    } else if (xml.startsWith('<!', i)) {
      const end = xml.indexOf('>', i + 2);
      if (end === -1) return null;
      i = end + 1;
    } else {
      break;
    }
    i = xml.indexOf('<', i);
    if (i === -1) return null;
  }
  const rest = xml.slice(i + 1, i + 1 + 2000);
  const m = NAME_END.exec(rest);
  const qname = m ? rest.slice(0, m.index) : rest;
  if (qname === '' || !/^[A-Za-z_][\w.:-]*$/.test(qname)) return null;
  const colon = qname.indexOf(':');
  const name = colon === -1 ? qname : qname.slice(colon + 1);
  const tagEnd = rest.indexOf('>');
  const startTag = tagEnd === -1 ? rest : rest.slice(0, tagEnd);
  const ns = /\sxmlns\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(startTag);
  return { name, namespace: ns ? (ns[1] ?? ns[2] ?? '') : null };
}

/**
 * A structural well-formedness check: every start tag closed by its own end tag, nothing left
 * open, nothing after the root. fast-xml-parser silently accepts truncated documents and
 * mismatched end tags; its XMLValidator catches them but costs about a quarter of a parse on
 * big lists, this scan about 2 %. Returns a problem description, or null when fine.
 */
export function checkStructure(xml: string, spans?: { name: string; found: number[] }): string | null {
  const stack: string[] = [];
  const n = xml.length;
  let rootSeen = false;
  // Start of the depth-1 element named spans.name that is open, for collecting its [start, end).
  let spanStart = -1;
  let i = xml.indexOf('<');
  while (i !== -1) {
    const c = xml.charCodeAt(i + 1);
    if (c === 63 /* ? */) {
      const end = xml.indexOf('?>', i + 2);
      if (end === -1) return 'unterminated processing instruction';
      i = xml.indexOf('<', end + 2);
      continue;
    }
    if (c === 33 /* ! */) {
      let end: number;
      if (xml.startsWith('<!--', i)) {
        end = xml.indexOf('-->', i + 4);
        if (end === -1) return 'unterminated comment';
        end += 3;
      } else if (xml.startsWith('<![CDATA[', i)) {
        end = xml.indexOf(']]>', i + 9);
        if (end === -1) return 'unterminated CDATA section';
        end += 3;
      } else {
        end = xml.indexOf('>', i + 2);
        if (end === -1) return 'unterminated declaration';
        end += 1;
      }
      i = xml.indexOf('<', end);
      continue;
    }
    if (c === 47 /* / */) {
      const end = xml.indexOf('>', i + 2);
      if (end === -1) return 'truncated end tag';
      const name = xml.slice(i + 2, end).trimEnd();
      const open = stack.pop();
      if (open === undefined) return `unexpected end tag </${name}>`;
      if (open !== name) return `end tag </${name}> does not match <${open}>`;
      if (spanStart !== -1 && stack.length === 1) {
        spans!.found.push(spanStart, end + 1);
        spanStart = -1;
      }
      i = xml.indexOf('<', end + 1);
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const ch = xml.charCodeAt(j);
      if (ch === 32 || ch === 62 || ch === 47 || ch === 9 || ch === 10 || ch === 13) break;
      j++;
    }
    if (j === i + 1) return 'a "<" that starts no tag';
    if (stack.length === 0 && rootSeen) return 'content after the root element';
    rootSeen = true;
    // `>` may appear inside quoted attribute values, so the end of the tag respects quotes.
    let quote = 0;
    let k = j;
    for (; k < n; k++) {
      const ch = xml.charCodeAt(k);
      if (quote !== 0) {
        if (ch === quote) quote = 0;
      } else if (ch === 34 || ch === 39) {
        quote = ch;
      } else if (ch === 62) {
        break;
      } else if (ch === 60) {
        return `malformed start tag <${xml.slice(i + 1, j)}>`;
      }
    }
    if (k >= n) return `truncated start tag <${xml.slice(i + 1, j)}>`;
    const name = xml.slice(i + 1, j);
    if (xml.charCodeAt(k - 1) !== 47) {
      if (spans !== undefined && stack.length === 1 && name === spans.name) spanStart = i;
      stack.push(name);
    } else if (spans !== undefined && stack.length === 1 && name === spans.name) {
      spans.found.push(i, k + 1);
    }
    i = xml.indexOf('<', k + 1);
  }
  if (stack.length > 0) return `document ends inside <${stack[stack.length - 1]}> (truncated?)`;
  if (!rootSeen) return 'no root element';
  const tail = xml.slice(xml.lastIndexOf('>') + 1);
  if (tail.trim() !== '') return 'text after the root element';
  return null;
}

const IOF_NAMESPACE = 'http://www.orienteering.org/datastandard/3.0';

function describeBody(xml: string): string {
  const head = xml.slice(firstContentIndex(xml), firstContentIndex(xml) + 200).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || head.includes('<html')) return 'an HTML page';
  return 'not XML';
}

/**
 * Parses an Eventor native document and returns its root element (an empty object for a
 * self-closed root). `expectedRoot` names the root the operation returns.
 */
export function parseNativeDocument(xml: string, expectedRoot: string): XmlNode {
  checkDocument(xml, expectedRoot);
  return parseRoot(xml, expectedRoot);
}

function checkDocument(xml: string, expectedRoot: string, spans?: { name: string; found: number[] }): void {
  if (typeof xml !== 'string' || xml.trim() === '') throw new InvalidResponse('empty body', expectedRoot);
  const root = readRootInfo(xml);
  if (root === null) throw new InvalidResponse(`expected <${expectedRoot}>, got ${describeBody(xml)}`, null);
  if (root.name.toLowerCase() === 'html')
    throw new InvalidResponse(`expected <${expectedRoot}>, got an HTML page`, null);
  if (root.namespace !== null && root.namespace !== '') {
    const what = root.namespace === IOF_NAMESPACE ? 'IOF XML 3.0' : `namespace ${root.namespace}`;
    throw new InvalidResponse(`expected Eventor native <${expectedRoot}>, got <${root.name}> in ${what}`, root.name);
  }
  if (root.name !== expectedRoot)
    throw new InvalidResponse(`expected <${expectedRoot}>, got <${root.name}>`, root.name);
  const structural = checkStructure(xml, spans);
  if (structural !== null) throw new InvalidResponse(`malformed XML: ${structural}`, expectedRoot);
}

/**
 * fast-xml-parser's message without the document excerpt it appends (`Context: "…"`): the body
 * may hold something secret, such as a login link.
 */
function parserProblem(error: unknown): string {
  if (!(error instanceof Error)) return 'parse error';
  const first = error.message.split('\n')[0] ?? '';
  const cut = first.indexOf('Context:');
  return (cut === -1 ? first : first.slice(0, cut)).replace(/[.\s]+$/, '').slice(0, 160) || 'parse error';
}

function parseRoot(xml: string, expectedRoot: string): XmlNode {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    throw new InvalidResponse(`malformed XML: ${parserProblem(error)}`, expectedRoot);
  }
  let value = doc[expectedRoot];
  // Roots such as Event and ResultList also repeat inside other documents, so isArray wraps them.
  if (Array.isArray(value)) {
    if (value.length !== 1) throw new InvalidResponse('more than one root element', expectedRoot);
    value = value[0];
  }
  if (value === undefined) throw new InvalidResponse(`missing <${expectedRoot}>`, null);
  if (typeof value === 'string') {
    // A self-closed or text-only root; text is kept for roots like <ExternalLoginUrl>.
    return value === '' ? {} : { '#text': value };
  }
  return value as XmlNode;
}

/** Documents above this size are parsed chunk by chunk where the caller allows it. */
const CHUNK_THRESHOLD = 1_000_000;

export interface ChunkedDocument {
  /** The root with every chunk element removed. */
  readonly root: XmlNode;
  /** The chunk elements (`ClassResult`, `ClassStart`) in document order, each parsed when reached. */
  readonly chunks: Iterable<XmlNode>;
  readonly count: number;
}

/**
 * Like parseNativeDocument, but parses the root's `chunkName` children one at a time. A
 * fast-xml-parser tree is several times the size of its text; parsing a 20,000-runner list
 * class by class keeps only one class's tree alive next to the result, instead of the whole
 * list's. Small documents are parsed in one go.
 */
export function parseNativeDocumentChunked(
  xml: string,
  expectedRoot: string,
  chunkName: string,
  threshold = CHUNK_THRESHOLD,
): ChunkedDocument {
  if (typeof xml !== 'string' || xml.length < threshold) {
    const root = parseNativeDocument(xml, expectedRoot);
    const chunks = children(root, chunkName).map((c): XmlNode => (isElement(c) ? c : {}));
    const rest: XmlNode = { ...root };
    delete rest[chunkName];
    return { root: rest, chunks, count: chunks.length };
  }
  const spans = { name: chunkName, found: [] as number[] };
  checkDocument(xml, expectedRoot, spans);
  const found = spans.found;
  const shellParts: string[] = [];
  let from = 0;
  for (let k = 0; k < found.length; k += 2) {
    shellParts.push(xml.slice(from, found[k]));
    from = found[k + 1]!;
  }
  shellParts.push(xml.slice(from));
  const root = parseRoot(shellParts.join(''), expectedRoot);
  const chunks: Iterable<XmlNode> = {
    *[Symbol.iterator]() {
      for (let k = 0; k < found.length; k += 2) {
        let doc: Record<string, unknown>;
        try {
          doc = parser.parse(xml.slice(found[k], found[k + 1])) as Record<string, unknown>;
        } catch (error) {
          throw new InvalidResponse(
            `malformed XML: ${parserProblem(error)}`,
            `${expectedRoot}/${chunkName}[${k / 2 + 1}]`,
          );
        }
        const value = doc[chunkName];
        const node = Array.isArray(value) ? value[0] : value;
        yield isElement(node) ? node : {};
      }
    },
  };
  return { root, chunks, count: found.length / 2 };
}

// ---------------------------------------------------------------------------------------------
// Accessors. They take the parent node and a path string only used when building an error, so
// the happy path allocates nothing extra.

export function isElement(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const EMPTY: readonly XmlValue[] = [];

/** All children named `name`, in document order. */
export function children(node: XmlValue, name: string): readonly XmlValue[] {
  if (!isElement(node)) return EMPTY;
  const value = node[name];
  if (value === undefined) return EMPTY;
  return Array.isArray(value) ? (value as XmlValue[]) : [value as XmlValue];
}

/** The first child named `name`, or undefined. */
export function child(node: XmlValue, name: string): XmlValue {
  if (!isElement(node)) return undefined;
  const value = node[name];
  return Array.isArray(value) ? (value[0] as XmlValue) : (value as XmlValue);
}

/** The text of a node itself; empty text is null. */
export function ownText(node: XmlValue): string | null {
  if (typeof node === 'string') return node === '' ? null : node;
  if (isElement(node)) {
    const t = node['#text'];
    if (typeof t === 'string' && t !== '') return t;
    if (typeof t === 'number') return String(t);
  }
  return null;
}

/** The text of the first child named `name`; absent or empty is null. */
export function text(node: XmlValue, name: string): string | null {
  if (!isElement(node)) return null;
  let value = node[name];
  if (Array.isArray(value)) value = value[0];
  if (typeof value === 'string') return value === '' ? null : value;
  return ownText(value as XmlValue);
}

/** The texts of all children named `name`, empty ones left out. */
export function texts(node: XmlValue, name: string): string[] {
  const out: string[] = [];
  for (const c of children(node, name)) {
    const t = ownText(c);
    if (t !== null) out.push(t);
  }
  return out;
}

/** An attribute of the node; absent or empty is null. */
export function attr(node: XmlValue, name: string): string | null {
  if (!isElement(node)) return null;
  const value = node[`@_${name}`];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The `value` attribute of the first child named `name` (`<CompetitorStatus value="OK"/>`). */
export function valueAttr(node: XmlValue, name: string): string | null {
  return attr(child(node, name), 'value');
}

/** A child that must be present. */
export function required(node: XmlValue, name: string, path: string): XmlValue {
  const value = child(node, name);
  if (value === undefined) throw new InvalidResponse(`missing <${name}>`, `${path}/${name}`);
  return value;
}

/** A child's text that must be present and non-empty. */
export function requiredText(node: XmlValue, name: string, path: string): string {
  const value = text(node, name);
  if (value === null)
    throw new InvalidResponse(
      child(node, name) === undefined ? `missing <${name}>` : `empty <${name}>`,
      `${path}/${name}`,
    );
  return value;
}

/** A child that must be present; its text may be empty (names: `<Name/>` reads as ''). */
export function presentText(node: XmlValue, name: string, path: string): string {
  const value = child(node, name);
  if (value === undefined) throw new InvalidResponse(`missing <${name}>`, `${path}/${name}`);
  return ownText(value) ?? '';
}

/** An attribute that must be present and non-empty. */
export function requiredAttr(node: XmlValue, name: string, path: string): string {
  const value = attr(node, name);
  if (value === null) throw new InvalidResponse(`missing attribute ${name}`, `${path}/@${name}`);
  return value;
}

/** Path of the `index`-th (0-based) child named `name`, written 1-based as in XPath. */
export function childPath(path: string, name: string, index: number, count: number): string {
  return count > 1 ? `${path}/${name}[${index + 1}]` : `${path}/${name}`;
}
