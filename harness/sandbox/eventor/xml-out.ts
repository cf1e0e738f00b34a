/**
 * A minimal streaming XML writer for the sandbox. Hand-rolled rather than fast-xml-parser's
 * XMLBuilder because the sandbox must control element order, empty-element spelling and the
 * self-closed empty root exactly as Eventor writes them, and must serialise 20,000-runner lists
 * without building a second object tree: text is appended to chunks of about 64 kB that the
 * server writes out one by one.
 */

const CHUNK = 64 * 1024;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const SPECIAL = /[&<>"']|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const SPECIAL_ALL = /[&<>"']|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text and attribute values; also drops characters XML 1.0 cannot carry. */
export function escapeXml(value: string): string {
  // Most values (ids, times, names) need nothing: test first, replace only when needed.
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] ?? '') : value;
}

export type Attrs = Record<string, string | number | null | undefined>;

function attrText(attrs: Attrs | undefined): string {
  if (!attrs) return '';
  let out = '';
  for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined) continue;
    out += ` ${k}="${typeof v === 'number' ? v : escapeXml(v)}"`;
  }
  return out;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const NATIVE_ROOT_ATTRS: Attrs = {
  'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
  'xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
};

export class XmlOut {
  private readonly chunks: string[] = [];
  // Pieces joined per chunk: much faster than `+=` on one string for millions of small appends.
  private parts: string[] = [];
  private size = 0;
  private readonly stack: string[] = [];
  /** Whether the element on top of the stack has had its start tag closed with `>` yet. */
  private pendingOpen = false;
  /** Attributes for the next element written, which becomes the root (namespace declarations). */
  private rootAttrs: Attrs | null = null;

  constructor(private readonly indent = '  ') {
    this.write(XML_DECLARATION);
  }

  private write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) {
      this.chunks.push(this.parts.join(''));
      this.parts = [];
      this.size = 0;
    }
  }

  private readonly newlines: string[] = [];

  private newline(): void {
    const depth = this.stack.length;
    let nl = this.newlines[depth];
    if (nl === undefined) {
      nl = `\n${this.indent.repeat(depth)}`;
      this.newlines[depth] = nl;
    }
    this.write(nl);
  }

  private closePending(): void {
    if (this.pendingOpen) {
      this.write('>');
      this.pendingOpen = false;
    }
  }

  /** Makes the next element the document root, with `attrs` written before its own. */
  asRoot(attrs: Attrs): this {
    this.rootAttrs = attrs;
    return this;
  }

  private merged(attrs: Attrs | undefined): Attrs | undefined {
    if (this.rootAttrs === null) return attrs;
    const out = { ...this.rootAttrs, ...attrs };
    this.rootAttrs = null;
    return out;
  }

  open(name: string, attrs?: Attrs): this {
    this.closePending();
    this.newline();
    this.write(`<${name}${attrText(this.merged(attrs))}`);
    this.stack.push(name);
    this.pendingOpen = true;
    return this;
  }

  close(): this {
    const name = this.stack.pop();
    if (name === undefined) throw new Error('XmlOut.close without open');
    if (this.pendingOpen) {
      // An element with no children: self-closed, like Eventor's empty roots (`<ResultListList … />`).
      this.write(' />');
      this.pendingOpen = false;
    } else {
      this.newline();
      this.write(`</${name}>`);
    }
    return this;
  }

  /** A text element; null/undefined text writes nothing, `''` writes `<Name></Name>` as Eventor does. */
  leaf(name: string, text: string | number | null | undefined, attrs?: Attrs): this {
    if (text === null || text === undefined) return this;
    this.closePending();
    this.newline();
    this.write(`<${name}${attrText(this.merged(attrs))}>${escapeXml(String(text))}</${name}>`);
    return this;
  }

  /** An element carrying only attributes, e.g. `<CompetitorStatus value="OK" />`. */
  empty(name: string, attrs?: Attrs): this {
    this.closePending();
    this.newline();
    this.write(`<${name}${attrText(this.merged(attrs))} />`);
    return this;
  }

  /**
   * A pre-serialised element (the caller escapes) on one line at the current depth. Used for
   * split times, of which a 20,000-runner list has over a million.
   */
  inline(xml: string): this {
    this.closePending();
    this.newline();
    this.write(xml);
    return this;
  }

  /** The document as chunks; call once, after the root is closed. */
  finish(): string[] {
    if (this.stack.length > 0) throw new Error(`XmlOut.finish with open elements: ${this.stack.join('/')}`);
    if (this.parts.length > 0) this.chunks.push(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    return this.chunks;
  }
}
