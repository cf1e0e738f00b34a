/**
 * A small, fast, namespace-aware XML reader building a lean element tree.
 *
 * Why not fast-xml-parser: it is not namespace-aware (it can only strip prefixes) and it reads a
 * 3.5 MB start list in about a second; this reader does it in a few tens of milliseconds, which
 * matters for 20,000-runner result lists with splits. It checks well-formedness as far as a data
 * reader needs (balanced tags, attribute syntax, one root, terminated comments/CDATA/PIs) and
 * reports the line of the first problem; it does not process DTDs (IOF 3.0 has none).
 */
import { InvalidResponse } from '../errors.js';

export interface XmlElement {
  /** Local name (without prefix). */
  readonly local: string;
  /** Namespace URI, or '' when the element is in no namespace. */
  readonly ns: string;
  /** Attributes by qualified name as written (IOF attributes are unprefixed). */
  readonly attrs: Readonly<Record<string, string>> | null;
  /** Child elements in document order; null for a leaf. */
  children: XmlElement[] | null;
  /** Concatenated character data of this element's own text nodes (untrimmed). */
  text: string;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 0xb7;
}
const ATTRIBUTE = /\s*([A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9_.:\u00B7\u00C0-\uFFFF]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const ENTITY = /&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function malformed(text: string, pos: number, problem: string): InvalidResponse {
  return new InvalidResponse(`malformed XML: ${problem}`, `line ${lineOf(text, pos)}`);
}

export function decodeEntities(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(ENTITY, (whole, name: string) => {
    if (name.charCodeAt(0) === 35 /* # */) {
      const code = name.charCodeAt(1) === 120 /* x */ ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    // An unknown entity (an HTML `&nbsp;` from a careless producer) is kept as written, not fatal.
    return PREDEFINED[name] ?? whole;
  });
}

interface Frame {
  el: XmlElement;
  qname: string;
  scope: Map<string, string>;
}

/**
 * Called when a child of the root element is complete. Returning true drops it from the tree:
 * a caller that turns each ClassResult into domain objects right away keeps only one block's
 * elements alive, which spares the garbage collector most of the work on big lists.
 */
export type RootChildHandler = (el: XmlElement, root: XmlElement) => boolean;

function rootChildDone(root: XmlElement, el: XmlElement, onRootChild: RootChildHandler | undefined): void {
  if (onRootChild?.(el, root) && root.children !== null && root.children[root.children.length - 1] === el) {
    root.children.pop();
  }
}

/** Parses a whole document and returns its root element. Throws InvalidResponse when not well-formed. */
export function parseXml(text: string, onRootChild?: RootChildHandler): XmlElement {
  const len = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: Frame[] = [];
  let root: XmlElement | null = null;
  const baseScope = new Map<string, string>([
    ['xml', XML_NS],
    ['', ''],
  ]);
  let scope = baseScope;

  while (pos < len) {
    const lt = text.indexOf('<', pos);
    const textEnd = lt === -1 ? len : lt;
    if (textEnd > pos) {
      const top = stack[stack.length - 1];
      if (top) {
        // Only leaves need their text; the whitespace between child elements is dropped.
        if (top.el.children === null) top.el.text += decodeEntities(text.slice(pos, textEnd));
      } else if (/\S/.test(text.slice(pos, textEnd))) {
        throw malformed(text, pos, root ? 'content after the root element' : 'content before the root element');
      }
    }
    if (lt === -1) break;
    pos = lt;
    const next = text.charCodeAt(pos + 1);
    if (next === 63 /* ? */) {
      const end = text.indexOf('?>', pos + 2);
      if (end === -1) throw malformed(text, pos, 'unterminated processing instruction');
      pos = end + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end === -1) throw malformed(text, pos, 'unterminated comment');
        pos = end + 3;
      } else if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos + 9);
        if (end === -1) throw malformed(text, pos, 'unterminated CDATA section');
        const top = stack[stack.length - 1];
        if (!top) throw malformed(text, pos, 'CDATA outside the root element');
        if (top.el.children === null) top.el.text += text.slice(pos + 9, end);
        pos = end + 3;
      } else if (text.startsWith('<!DOCTYPE', pos) && stack.length === 0 && root === null) {
        // Skip the declaration including an internal subset `[...]`; entities in it are not expanded.
        let i = pos + 9;
        let depth = 0;
        for (; i < len; i++) {
          const c = text.charCodeAt(i);
          if (c === 91 /* [ */) depth++;
          else if (c === 93 /* ] */) depth--;
          else if (c === 62 /* > */ && depth <= 0) break;
        }
        if (i >= len) throw malformed(text, pos, 'unterminated DOCTYPE');
        pos = i + 1;
      } else {
        throw malformed(text, pos, 'unexpected markup declaration');
      }
      continue;
    }
    if (next === 47 /* / */) {
      const frame = stack.pop();
      if (!frame) throw malformed(text, pos, 'end tag without a start tag');
      const q = frame.qname;
      let p = pos + 2 + q.length;
      if (!text.startsWith(q, pos + 2)) throw malformed(text, pos, `end tag does not match <${q}>`);
      let c = text.charCodeAt(p);
      while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++p);
      if (c !== 62 /* > */) throw malformed(text, pos, `bad end tag for <${q}>`);
      pos = p + 1;
      scope = stack.length > 0 ? stack[stack.length - 1]!.scope : baseScope;
      if (stack.length === 1) rootChildDone(stack[0]!.el, frame.el, onRootChild);
      continue;
    }
    // A start tag.
    let p = pos + 1;
    if (!isNameStart(text.charCodeAt(p))) throw malformed(text, pos, "'<' not followed by an element name");
    for (let c = text.charCodeAt(++p); isNameChar(c); c = text.charCodeAt(++p));
    const qname = text.slice(pos + 1, p);
    let attrs: Record<string, string> | null = null;
    let declaresNs = false;
    for (;;) {
      TAG_END.lastIndex = p;
      const end = TAG_END.exec(text);
      if (end) {
        p = TAG_END.lastIndex;
        const selfClosing = end[1] === '/';
        let elementScope = scope;
        if (declaresNs && attrs) {
          elementScope = new Map(scope);
          for (const key in attrs) {
            if (key === 'xmlns') elementScope.set('', attrs[key]!);
            else if (key.startsWith('xmlns:')) elementScope.set(key.slice(6), attrs[key]!);
          }
        }
        const colon = qname.indexOf(':');
        const prefix = colon === -1 ? '' : qname.slice(0, colon);
        const ns = elementScope.get(prefix);
        if (ns === undefined) throw malformed(text, pos, `undeclared namespace prefix '${prefix}'`);
        const el: XmlElement = {
          local: colon === -1 ? qname : qname.slice(colon + 1),
          ns,
          attrs,
          children: null,
          text: '',
        };
        const parent = stack[stack.length - 1];
        if (parent) {
          if (parent.el.children === null) {
            parent.el.children = [];
            parent.el.text = '';
          }
          parent.el.children.push(el);
        } else {
          if (root !== null) throw malformed(text, pos, 'more than one root element');
          root = el;
        }
        if (!selfClosing) {
          stack.push({ el, qname, scope: elementScope });
          scope = elementScope;
        } else if (stack.length === 1) {
          rootChildDone(stack[0]!.el, el, onRootChild);
        }
        break;
      }
      ATTRIBUTE.lastIndex = p;
      const a = ATTRIBUTE.exec(text);
      if (!a) throw malformed(text, p, `bad attribute syntax in <${qname}>`);
      if (!/\s/.test(text.charAt(p))) throw malformed(text, p, `missing space before an attribute in <${qname}>`);
      const key = a[1]!;
      const value = decodeEntities(a[2] ?? a[3] ?? '');
      attrs ??= {};
      if (Object.hasOwn(attrs, key)) throw malformed(text, p, `duplicate attribute '${key}' in <${qname}>`);
      attrs[key] = value;
      if (key === 'xmlns' || key.startsWith('xmlns:')) declaresNs = true;
      p = ATTRIBUTE.lastIndex;
    }
    pos = p;
  }
  if (stack.length > 0)
    throw malformed(text, len, `unexpected end of document inside <${stack[stack.length - 1]!.qname}>`);
  if (root === null) throw new InvalidResponse('not an XML document (no root element)', null);
  return root;
}

// --- navigation helpers; `ns` is compared by identity-equal strings, which is cheap --------------

export function firstChild(el: XmlElement, ns: string, local: string): XmlElement | null {
  const children = el.children;
  if (children === null) return null;
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    if (c.local === local && c.ns === ns) return c;
  }
  return null;
}

export function childrenNamed(el: XmlElement, ns: string, local: string): XmlElement[] {
  const children = el.children;
  if (children === null) return [];
  const out: XmlElement[] = [];
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    if (c.local === local && c.ns === ns) out.push(c);
  }
  return out;
}

/** Trimmed text of an element; null when absent or empty. */
export function textOf(el: XmlElement | null): string | null {
  if (el === null) return null;
  const t = el.text.trim();
  return t === '' ? null : t;
}

export function attr(el: XmlElement, name: string): string | null {
  const v = el.attrs?.[name];
  if (v === undefined) return null;
  const t = v.trim();
  return t === '' ? null : t;
}
