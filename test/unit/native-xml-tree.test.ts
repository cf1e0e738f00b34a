/**
 * The native reader's own XML tree (`readTree` in src/eventor/xml.ts) against fast-xml-parser with
 * the same options, the reference it replaces for speed: the same tree for every real Eventor
 * sample and for the corners of the syntax, and the library's reading where the fast reader
 * steps aside.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStructure, libraryTree, readTree } from '../../src/eventor/xml.js';
import { NEEDS_SHARED_FIXTURES, SHARED_FIXTURES } from '../support/shared-fixtures.js';

const dir = path.join(SHARED_FIXTURES, 'eventor');
const samples = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.xml')) : [];

/** The library's tree without what it keeps of the prolog (`?xml`), which no reader uses. */
function reference(xml: string): Record<string, unknown> {
  const tree = libraryTree(xml);
  for (const key of Object.keys(tree)) if (key.startsWith('?')) delete tree[key];
  return tree;
}

function fast(xml: string): Record<string, unknown> | null {
  expect(checkStructure(xml)).toBeNull();
  return readTree(xml, 0, xml.length);
}

describe.skipIf(samples.length === 0)(`the fast tree of the Eventor samples ${NEEDS_SHARED_FIXTURES}`, () => {
  it.each(samples)('%s: the same tree as fast-xml-parser', (name) => {
    const xml = readFileSync(path.join(dir, name), 'utf8');
    const tree = fast(xml);
    expect(tree).not.toBeNull();
    expect(tree).toEqual(reference(xml));
  });
});

const PROLOG = '<?xml version="1.0" encoding="utf-8"?>\n<!-- written by hand -->\n';

/** Documents the fast reader reads itself, each touching a corner of the syntax. */
const FAST_CASES: Record<string, string> = {
  'attributes with text, attributes alone, empty and self-closed elements': `${PROLOG}<Root><Name languageId="en">Sweden</Name><Name languageId="sv"></Name><CountryId value="752" /><Empty></Empty><Closed/><Spaced>   </Spaced></Root>`,
  'namespace prefixes and declarations': `<Root xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:x"><xsi:Thing xsi:nil="true" a:b:c="3" xmlns:a="urn:a">x</xsi:Thing><a:b:c>deep</a:b:c></Root>`,
  'mixed text around children is trimmed per piece and joined': `<Root>  head <Child>one</Child> middle <Child>two</Child> tail  </Root>`,
  'the five predefined entities, once each (no double decoding)': `<Root a="&lt;&amp;&gt;" b='&quot;&apos;'>&amp;lt; &lt;tag&gt; R&amp;D</Root>`,
  'line ends and non-ASCII spaces': `<Root>\r\n  <Text>line one\r\nline two\rthree</Text>\r\n  <Nbsp>\u00a0padded\u00a0</Nbsp>\r\n</Root>`,
  'quotes, > and tabs inside start tags': `<Root>\n<A\tx="1>2"\ty='a "b"'  >v</A><B x = "spaced" /><C flag x="1">bare attribute skipped</C></Root>`,
  'repeating names: listed ones are arrays from the first, others from the second': `<ResultList><ClassResult><PersonResult/></ClassResult><Other>1</Other><Other>2</Other><Other>3</Other><Single>s</Single></ResultList>`,
  'a root that is a repeating name, self-closed': `<Event />`,
  'unicode names and text': `<Rot><Förening namn="Älvdalen">Å Ä Ö – ✓</Förening><_under>u</_under></Rot>`,
};

/** Documents the fast reader leaves to the library (it returns null and the library reads them). */
const LIBRARY_CASES: Record<string, string> = {
  'a character reference': `<Root><Name>&#229;sa &#x00E5;</Name></Root>`,
  'an HTML entity': `<Root><Name>a&nbsp;b</Name></Root>`,
  'CDATA inside': `<Root><Name><![CDATA[<b>]]></Name></Root>`,
  'a comment inside': `<Root><Name>a<!-- c -->b</Name></Root>`,
  'a processing instruction inside': `<Root><?pi x?><Name>a</Name></Root>`,
  'a doctype': `<!DOCTYPE Root><Root><Name>a</Name></Root>`,
  'an element named like an Object property': `<Root><toString>a</toString></Root>`,
};

describe('the fast tree against fast-xml-parser', () => {
  it.each(Object.entries(FAST_CASES))('%s', (_what, xml) => {
    const tree = fast(xml);
    expect(tree).not.toBeNull();
    expect(tree).toEqual(reference(xml));
  });

  it.each(Object.entries(LIBRARY_CASES))('%s is left to the library', (_what, xml) => {
    expect(fast(xml)).toBeNull();
  });

  it('reads a range of a document: one element out of a list', () => {
    const xml = `<ResultList><ClassResult n="1"><A>a</A></ClassResult><ClassResult n="2"><A>b</A><A>c</A></ClassResult></ResultList>`;
    const start = xml.indexOf('<ClassResult n="2"');
    const end = xml.indexOf('</ResultList>');
    expect(readTree(xml, start, end)).toEqual(reference(xml.slice(start, end)));
    expect(readTree(xml, start, end)).toEqual({ ClassResult: [{ '@_n': '2', A: ['b', 'c'] }] });
  });
});
