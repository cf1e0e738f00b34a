/**
 * Parts of the repository's pages written from the code rather than by hand (`npm run docs:commands`,
 * `npm run docs:samples`): each part sits between two HTML comments naming its writer, so the rest of
 * the page stays hand-written, and a test writes the parts again and fails when the page differs.
 * Pages come out as Prettier lays them out, so `npm run lint` leaves them as written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The repository: two folders up from harness/docs, three from dist/harness/docs. */
export const REPO = path.resolve(HERE, HERE.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..');

/** A written part: the page it is on (from the repository's root), its name there, and its Markdown. */
export interface WrittenPart {
  page: string;
  name: string;
  markdown: string;
}

const start = (name: string, writer: string): string =>
  `<!-- ${name}: written by \`${writer}\`; run it again rather than editing. -->`;
const end = (name: string): string => `<!-- End of ${name}. -->`;

/** Where a part is on a page: the text between its markers; null when the page has no such markers. */
function bounds(page: string, name: string): { from: number; to: number } | null {
  const opening = new RegExp(`<!-- ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: written by [^\\n]*-->`).exec(page);
  const closing = page.indexOf(end(name));
  if (!opening || closing < opening.index) return null;
  return { from: opening.index, to: closing + end(name).length };
}

/** The page with its part `name` replaced; throws when the page has no markers for it. */
export function withPart(page: string, part: WrittenPart, writer: string): string {
  const at = bounds(page, part.name);
  if (at === null)
    throw new Error(`${part.page} has no markers for ${part.name} (add "${end(part.name)}" after its opening one)`);
  return `${page.slice(0, at.from)}${start(part.name, writer)}\n\n${part.markdown.trim()}\n\n${end(part.name)}${page.slice(at.to)}`;
}

/** A page as Prettier lays it out (the repository's settings), as `npm run lint` checks it. */
export async function prettierMarkdown(file: string, text: string): Promise<string> {
  const options = await resolveConfig(file);
  return format(text, { ...options, filepath: file, parser: 'markdown' });
}

/** Every page with its parts written in, laid out: the pages as they should be, by path from the root. */
export async function writtenPages(parts: readonly WrittenPart[], writer: string): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const part of parts) {
    const file = path.join(REPO, part.page);
    const page = pages.get(part.page) ?? (await readFile(file, 'utf8'));
    pages.set(part.page, withPart(page, part, writer));
  }
  for (const [page, text] of pages) pages.set(page, await prettierMarkdown(path.join(REPO, page), text));
  return pages;
}

/** Writes the pages that differ; the lines saying which were written and which were unchanged. */
export async function writePages(pages: ReadonlyMap<string, string>): Promise<string[]> {
  const said: string[] = [];
  for (const [page, text] of pages) {
    const file = path.join(REPO, page);
    const before = await readFile(file, 'utf8');
    if (before !== text) await writeFile(file, text);
    said.push(`${before === text ? 'unchanged' : 'wrote'} ${page}`);
  }
  return said;
}

/** A Markdown table: a header row, then the rows (Prettier pads them when the page is laid out). */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
