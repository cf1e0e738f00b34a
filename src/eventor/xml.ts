/**
 * The one XML reader for Eventor native documents, plus small path-aware accessors over the
 * tree it produces: fast-xml-parser's object tree with the options below, built by a one-pass
 * reader of our own (readTree) for the documents Eventor sends, by the library for the rest. Every problem with the body (not XML, truncated, malformed, wrong root,
 * something we rely on missing) becomes an `InvalidResponse` naming where.
 */
import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import { InvalidResponse } from './errors.js';

/**
 * Elements that can repeat (docs/eventor.md#repeating-elements). Only these become arrays;
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

/**
 * fast-xml-parser with the reader's options, made on first use: the fast reader below reads every
 * document Eventor sends, so the library is needed only for the rare rest. It is loaded through
 * `require`, whose single-file CommonJS build costs about 17 ms of CPU to load against about 90 ms
 * for its ES modules, on every `start` and `query` (`npm run bench`: ready-seconds, query-cli-ratio).
 */
let libraryParser: XMLParser | undefined;
function parser(): XMLParser {
  if (libraryParser) return libraryParser;
  const { XMLParser: Parser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  libraryParser = new Parser({
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
  return libraryParser;
}

// ---------------------------------------------------------------------------------------------
// The fast reader. fast-xml-parser first builds an ordered tree of every element and then
// compresses it into the object tree below; on a 20,000-runner list a third of the parse is the
// garbage collector sweeping that intermediate tree. This reader builds the same object tree
// (checked against the library's in test/unit/native-xml-tree.test.ts) in one pass, straight into the
// final objects. It reads what Eventor sends (elements, attributes, text, the five predefined
// entities); anything rarer in the range it reads (comments, CDATA, processing instructions or
// a DOCTYPE inside, character or HTML entities, names that would collide with Object's own
// properties) is left to fast-xml-parser, whose behaviour is the reference.

/** Names fast-xml-parser rejects or renames because they collide with Object's own properties. */
const LIBRARY_SPECIAL_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

const PREDEFINED_ENTITY = /&(?:amp|lt|gt|quot|apos);/g;
const PREDEFINED_ENTITY_TEXT: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&apos;': "'",
};
/** fast-xml-parser's attribute syntax (lenient: a name without a value is skipped, not an error). */
const LIBRARY_ATTRIBUTE = /([^\s=]+)\s*(=\s*(?:"([^"]*)"|'([^']*)'))?/g;

function isXmlSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

/** Whether every `&` in [from, to) starts one of the five predefined entities. */
function onlyPredefinedEntities(xml: string, from: number, to: number): boolean {
  for (let i = xml.indexOf('&', from); i !== -1 && i < to; i = xml.indexOf('&', i + 1)) {
    PREDEFINED_ENTITY.lastIndex = i;
    const m = PREDEFINED_ENTITY.exec(xml);
    if (m === null || m.index !== i) return false;
  }
  return true;
}

/**
 * A text or attribute value as fast-xml-parser gives it with our options: line ends normalised,
 * trimmed, then entities decoded. The string is only sliced out when it holds more than spaces,
 * which spares an allocation for the indentation between elements.
 */
function valueAt(xml: string, from: number, to: number): string {
  while (from < to && isXmlSpace(xml.charCodeAt(from))) from++;
  while (to > from && isXmlSpace(xml.charCodeAt(to - 1))) to--;
  if (from === to) return '';
  // trim() again for the non-ASCII spaces (no-break space) the library's trim() removes too.
  let value = xml.slice(from, to).trim();
  if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
  if (value.includes('&')) value = value.replace(PREDEFINED_ENTITY, (entity) => PREDEFINED_ENTITY_TEXT[entity]!);
  return value;
}

/** An element name as the library keeps it: the prefix removed; null for a name it treats specially. */
function elementName(qname: string): string | null {
  const colon = qname.indexOf(':');
  const name = colon === -1 ? qname : qname.slice(colon + 1);
  const first = name.charCodeAt(0);
  const plain = (first >= 65 && first <= 90) || (first >= 97 && first <= 122) || first === 95 || first >= 0xc0;
  return plain && !LIBRARY_SPECIAL_NAMES.has(name) ? name : null;
}

/** An attribute's key as the library writes it (`@_name`, prefix removed); null for namespace declarations. */
function attributeKey(qname: string): string | null {
  const colon = qname.indexOf(':');
  if (colon === -1) return qname === 'xmlns' ? null : `@_${qname}`;
  if (qname.startsWith('xmlns:')) return null;
  // The library only strips the prefix of a name with exactly one colon.
  const local = qname.indexOf(':', colon + 1) === -1 ? qname.slice(colon + 1) : qname;
  return local === '' ? null : `@_${local}`;
}

function attributesAt(xml: string, from: number, to: number): XmlNode | null {
  let attributes: XmlNode | null = null;
  const source = xml.slice(from, to);
  LIBRARY_ATTRIBUTE.lastIndex = 0;
  for (let m = LIBRARY_ATTRIBUTE.exec(source); m !== null; m = LIBRARY_ATTRIBUTE.exec(source)) {
    const raw = m[3] ?? m[4];
    const key = attributeKey(m[1]!);
    if (raw === undefined || key === null) continue;
    attributes ??= {};
    attributes[key] = valueAt(raw, 0, raw.length);
  }
  return attributes;
}

/** Adds a finished element to its parent the way the library does: repeating names become arrays. */
function addChild(parent: XmlNode, name: string, value: XmlNode | string): void {
  const existing = parent[name];
  if (existing === undefined) parent[name] = NATIVE_ARRAY_TAGS.has(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent[name] = [existing, value];
}

/**
 * The object tree of the elements in [from, to) of a document checkStructure accepted (so tags
 * are balanced and start tags end), keyed like fast-xml-parser's result; null when the range
 * holds something this reader leaves to the library.
 */
export function readTree(xml: string, from: number, to: number): Record<string, unknown> | null {
  if (!onlyPredefinedEntities(xml, from, to)) return null;
  const document: XmlNode = {};
  // The open elements, as parallel stacks so that an element costs no frame object: its name,
  // its object (made when it gets a child or attribute) and its text so far.
  const names: string[] = [];
  const nodes: Array<XmlNode | null> = [];
  const texts: string[] = [];
  let depth = 0;
  let textStart = from;
  let i = xml.indexOf('<', from);
  while (i !== -1 && i < to) {
    if (depth > 0 && i > textStart) {
      // The library trims each piece of text between two tags and joins the pieces left.
      const piece = valueAt(xml, textStart, i);
      if (piece !== '') texts[depth - 1] += piece;
    }
    const next = xml.charCodeAt(i + 1);
    if (next === 63 /* ? */ || next === 33 /* ! */) {
      // Only the XML declaration and comments before the root are this reader's; the rest is the library's.
      if (depth > 0 || (next === 33 && !xml.startsWith('<!--', i))) return null;
      const end = next === 63 ? xml.indexOf('?>', i) + 2 : xml.indexOf('-->', i) + 3;
      if (end < 2) return null;
      textStart = end;
      i = xml.indexOf('<', end);
      continue;
    }
    if (next === 47 /* / */) {
      depth--;
      const node = nodes[depth]!;
      const text = texts[depth]!;
      let value: XmlNode | string;
      if (node === null) value = text;
      else {
        if (text !== '') node['#text'] = text;
        value = node;
      }
      addChild(depth === 0 ? document : (nodes[depth - 1] ??= {}), names[depth]!, value);
      textStart = xml.indexOf('>', i + 2) + 1;
      i = xml.indexOf('<', textStart);
      continue;
    }
    // A start tag: the name ends at a space, `/` or `>`; the tag at the first `>` outside quotes.
    let j = i + 1;
    for (let c = xml.charCodeAt(j); !(isXmlSpace(c) || c === 47 || c === 62) && j < to; c = xml.charCodeAt(++j));
    const name = elementName(xml.slice(i + 1, j));
    if (name === null) return null;
    let k = j;
    for (let c = xml.charCodeAt(k), quote = 0; k < to; c = xml.charCodeAt(++k)) {
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62) break;
    }
    const selfClosing = xml.charCodeAt(k - 1) === 47;
    const attributesEnd = selfClosing ? k - 1 : k;
    let attributes: XmlNode | null = null;
    for (let a = j; a < attributesEnd; a++) {
      if (!isXmlSpace(xml.charCodeAt(a))) {
        attributes = attributesAt(xml, j, attributesEnd);
        break;
      }
    }
    if (selfClosing) {
      addChild(depth === 0 ? document : (nodes[depth - 1] ??= {}), name, attributes ?? '');
    } else {
      if (depth > 0) nodes[depth - 1] ??= {};
      names[depth] = name;
      nodes[depth] = attributes;
      texts[depth] = '';
      depth++;
    }
    textStart = k + 1;
    i = xml.indexOf('<', textStart);
  }
  return document;
}

/**
 * The object tree of xml[from, to): the fast reader's, or fast-xml-parser's for what the fast
 * reader leaves to it. Throws the library's error for what it cannot read.
 */
function readDocument(xml: string, from = 0, to = xml.length): Record<string, unknown> {
  return (
    readTree(xml, from, to) ??
    (parser().parse(from === 0 && to === xml.length ? xml : xml.slice(from, to)) as Record<string, unknown>)
  );
}

/** fast-xml-parser's tree with the reader's options: the reference the fast reader is tested against. */
export function libraryTree(xml: string): Record<string, unknown> {
  return parser().parse(xml) as Record<string, unknown>;
}

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
    doc = readDocument(xml);
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
          doc = readDocument(xml, found[k], found[k + 1]);
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
