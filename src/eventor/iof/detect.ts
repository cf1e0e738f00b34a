/**
 * Cheap detection of what an XML document is, from its prolog and root start tag only, so that a
 * caller can route a multi-megabyte file without parsing it twice.
 */
export const IOF_NS = 'http://www.orienteering.org/datastandard/3.0';
/** The https spelling from the official examples README; wrong, but some producers copied it. */
export const IOF_NS_HTTPS = 'https://www.orienteering.org/datastandard/3.0';
export const EVENTOR_EXTENSIONS_NS = 'http://eventor.orientering.se/iofxmlextensions';

export interface IofDocumentInfo {
  /** `3.0`: IOF XML 3.0; `2.0.3`: the old DTD-based standard; null: neither (or not XML). */
  version: '3.0' | '2.0.3' | null;
  root: 'ResultList' | 'StartList' | 'other';
  /** Local name of the root element, null when no root start tag was found. */
  rootName: string | null;
  /** Namespace URI of the root element ('' for none), null when no root was found. */
  namespace: string | null;
  /** `iofVersion` attribute (3.0) or `IOFVersion@version` (2.0.3) as written. */
  iofVersion: string | null;
  creator: string | null;
}

// Enough to reach the root tag past a long comment and to see 2.0.3's IOFVersion child.
const HEAD_WINDOW = 16_384;
const ROOT_TAG =
  /<([A-Za-z_][-A-Za-z0-9_.]*(?::[A-Za-z_][-A-Za-z0-9_.]*)?)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/y;
const ATTRIBUTES = /([^\s=>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Skips the prolog (BOM, declaration, comments, PIs, DOCTYPE); returns the root tag offset and the DOCTYPE text. */
function skipProlog(text: string): { pos: number; doctype: string | null } {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let doctype: string | null = null;
  for (let guard = 0; guard < 10_000 && pos < text.length; guard++) {
    while (pos < text.length && /\s/.test(text.charAt(pos))) pos++;
    if (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos);
      if (end === -1) return { pos: -1, doctype };
      pos = end + 2;
    } else if (text.startsWith('<!--', pos)) {
      const end = text.indexOf('-->', pos);
      if (end === -1) return { pos: -1, doctype };
      pos = end + 3;
    } else if (text.startsWith('<!DOCTYPE', pos)) {
      let i = pos;
      let depth = 0;
      for (; i < text.length; i++) {
        const c = text.charAt(i);
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      doctype = text.slice(pos, i + 1);
      pos = i + 1;
    } else {
      return { pos: text.startsWith('<', pos) ? pos : -1, doctype };
    }
  }
  return { pos: -1, doctype };
}

export function detectIofDocument(text: string): IofDocumentInfo {
  const head = text.length > HEAD_WINDOW ? text.slice(0, HEAD_WINDOW) : text;
  const none: IofDocumentInfo = {
    version: null,
    root: 'other',
    rootName: null,
    namespace: null,
    iofVersion: null,
    creator: null,
  };
  const { pos, doctype } = skipProlog(head);
  if (pos < 0) return none;
  ROOT_TAG.lastIndex = pos;
  const m = ROOT_TAG.exec(head);
  if (!m) return none;
  const qname = m[1]!;
  const attrs = new Map<string, string>();
  for (const a of m[2]!.matchAll(ATTRIBUTES)) attrs.set(a[1]!, a[2] ?? a[3] ?? '');
  const colon = qname.indexOf(':');
  const prefix = colon === -1 ? '' : qname.slice(0, colon);
  const rootName = colon === -1 ? qname : qname.slice(colon + 1);
  const namespace = (prefix === '' ? attrs.get('xmlns') : attrs.get(`xmlns:${prefix}`)) ?? '';
  const root = rootName === 'ResultList' || rootName === 'StartList' ? rootName : 'other';
  const creator = attrs.get('creator') ?? null;
  const iofVersionAttr = attrs.get('iofVersion')?.trim() ?? null;

  if (namespace === IOF_NS || namespace === IOF_NS_HTTPS) {
    return { version: '3.0', root, rootName, namespace, iofVersion: iofVersionAttr, creator };
  }
  if (namespace === '' && iofVersionAttr === '3.0') {
    // No namespace but the 3.0 marker: a sloppy 3.0 producer; read it leniently as 3.0.
    return { version: '3.0', root, rootName, namespace, iofVersion: iofVersionAttr, creator };
  }
  const v2 = /<IOFVersion\s+version\s*=\s*["']([^"']*)["']/.exec(head);
  if (namespace === '' && (v2 !== null || (doctype !== null && /IOFdata\.dtd/i.test(doctype)))) {
    return { version: '2.0.3', root, rootName, namespace, iofVersion: v2?.[1] ?? null, creator };
  }
  return { version: null, root, rootName, namespace, iofVersion: iofVersionAttr, creator };
}
