/**
 * Turns the bytes of an XML document into text, honouring the byte order mark and the encoding
 * named in the XML declaration. Eventor itself sends UTF-8, but files from timing software come
 * in windows-1252 (OE2010, OS2010), ISO-8859-1 (Otime) and UTF-8 with or without a BOM, and the
 * declaration may use single quotes or be absent (then XML says UTF-8).
 */
import { InvalidResponse } from '../errors.js';

// Spellings seen in the wild that are not WHATWG labels.
const LABEL_ALIASES: Record<string, string> = {
  'latin-1': 'latin1',
  iso8859_1: 'iso-8859-1',
  windows1252: 'windows-1252',
  'cp-1252': 'windows-1252',
};

// Long enough for any real declaration, short enough to make sniffing O(1).
const DECLARATION_WINDOW = 512;

/** The encoding label from the XML declaration at the start of `head`, or null. */
export function declaredEncoding(head: string): string | null {
  const decl = /^\s*<\?xml\s[^?]*?encoding\s*=\s*(["'])([A-Za-z0-9._:-]+)\1/.exec(head);
  return decl ? decl[2]!.toLowerCase() : null;
}

function utf16Declaration(bytes: Uint8Array, littleEndian: boolean): boolean {
  // `<?` with a NUL after (LE) or before (BE) each byte: UTF-16 without BOM (allowed by XML 1.0 F.1).
  return (
    bytes.length >= 4 &&
    (littleEndian
      ? bytes[0] === 0x3c && bytes[1] === 0 && bytes[2] === 0x3f && bytes[3] === 0
      : bytes[0] === 0 && bytes[1] === 0x3c && bytes[2] === 0 && bytes[3] === 0x3f)
  );
}

/**
 * Decodes XML bytes to a string without BOM. The BOM wins over the declaration (XML 1.0 F.1);
 * otherwise the declared encoding is used, and UTF-8 when there is none. `ISO-8859-1` decodes as
 * windows-1252, as the WHATWG Encoding standard requires (it is a superset for printable text).
 * An encoding the runtime does not know is an InvalidResponse; bytes invalid in UTF-8 become U+FFFD
 * rather than an error, so one broken name does not lose a whole result list.
 */
export function decodeXmlBytes(bytes: Uint8Array): string {
  let label: string;
  let offset = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    label = 'utf-8';
    offset = 3;
  } else if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    label = 'utf-16le';
    offset = 2;
  } else if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    label = 'utf-16be';
    offset = 2;
  } else if (utf16Declaration(bytes, true)) {
    label = 'utf-16le';
  } else if (utf16Declaration(bytes, false)) {
    label = 'utf-16be';
  } else {
    // The declaration is ASCII in every ASCII-compatible encoding, so latin1 is safe for sniffing.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, DECLARATION_WINDOW));
    const declared = declaredEncoding(head);
    // A declaration claiming UTF-16 on bytes that are evidently 8-bit is a producer mistake; UTF-8 reads it.
    label =
      declared === null || declared.startsWith('utf-16') || declared === 'unicode'
        ? 'utf-8'
        : (LABEL_ALIASES[declared] ?? declared);
  }
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label, { ignoreBOM: true });
  } catch {
    throw new InvalidResponse(`unsupported XML encoding '${label}'`, 'xml declaration');
  }
  const text = decoder.decode(offset === 0 ? bytes : bytes.subarray(offset));
  // Some Node versions decode windows-1252 as plain Latin-1, leaving 0x80-0x9F as C1 controls
  // instead of `€`, `‚`, `Š`...: map them here so the result is right on every runtime.
  return decoder.encoding === 'windows-1252'
    ? text.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c)
    : text;
}

// windows-1252 0x80-0x9F; the five undefined bytes map to themselves (WHATWG).
const CP1252_HIGH: readonly string[] = [
  '\u20ac',
  '\u0081',
  '\u201a',
  '\u0192',
  '\u201e',
  '\u2026',
  '\u2020',
  '\u2021',
  '\u02c6',
  '\u2030',
  '\u0160',
  '\u2039',
  '\u0152',
  '\u008d',
  '\u017d',
  '\u008f',
  '\u0090',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2022',
  '\u2013',
  '\u2014',
  '\u02dc',
  '\u2122',
  '\u0161',
  '\u203a',
  '\u0153',
  '\u009d',
  '\u017e',
  '\u0178',
];

/** Text as given, or decoded bytes; strips a leading BOM from text input too. */
export function toXmlText(input: string | Uint8Array): string {
  if (typeof input === 'string') return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  return decodeXmlBytes(input);
}
