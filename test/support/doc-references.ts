/**
 * Checks that what the code and the docs cite can be opened by a reader of the repository: cited
 * `docs/….md#heading` files and headings exist, relative Markdown links resolve, nothing points at
 * documents outside the repository (an issue tracker, research notes), and Markdown tables stay
 * readable (rows of at most 160 characters). Each problem is one line, `file:line: rule: detail`,
 * with the file relative to the root checked.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Problem {
  file: string;
  line: number;
  rule: string;
  detail: string;
}

export const formatProblem = (p: Problem): string => `${p.file}:${p.line}: ${p.rule}: ${p.detail}`;

/** Folders never walked: dependencies, build output, git's own files. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);
/** Source files whose lines are checked for citations (code, comments and strings alike). */
const SOURCE_EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs']);
/** Where citations are checked: the code, the tests, the launcher, the docs, and the two top-level documents. */
const CITING_DIRS = ['src', 'commands', 'test', 'bin', 'docs'];
const CITING_FILES = ['README.md', 'SECURITY.md'];

export const MAX_TABLE_ROW = 160;

/**
 * References to documents a reader of the repository cannot open. Written so that this file's own
 * source does not match them (an escaped section sign, `\s` between words).
 */
const OUTSIDE_REFERENCES: readonly { rule: string; pattern: RegExp; codeOnly?: boolean }[] = [
  { rule: 'cites an issue', pattern: /\bissues?\s+\d+/i },
  { rule: 'cites the research notes', pattern: /\bwire\s+notes\b/i },
  { rule: 'cites the research notes', pattern: /shared\/notes\b/i },
  { rule: 'cites the research notes', pattern: /\bnotes\/[\w.-]+\.md\b/i },
  { rule: 'cites the research notes', pattern: /\bnotes\s*\u00a7/i },
  { rule: 'cites a spec outside the repository', pattern: /\bspec(?:\s+section)?\s+\d/i },
  { rule: 'cites a numbered section of an outside document', pattern: /\u00a7/, codeOnly: true },
];

/**
 * A cited repository document: `docs/<path>.md`, `README.md` or `SECURITY.md`, with an optional
 * `#anchor`. Not preceded by a path character, so `../docs/x.md` (a Markdown link, checked as one)
 * and `src/docs/x.md` are not taken for one.
 */
const CITATION = /(?<![\w/.-])(docs\/(?:[\w.-]+\/)*[\w.-]+\.md|README\.md|SECURITY\.md)(?:#([\p{L}\p{N}_-]+))?/gu;

/** An inline Markdown link or image: `[text](target)` or `[text](target "title")`. */
const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
/** A reference definition: `[label]: target`. */
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/;

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as GitHub renders it: links to their text, inline code and emphasis marks gone. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .replace(/(^|\s)_+|_+(?=\s|$)/g, '$1')
    .trim();
}

/** Lines of a Markdown file with fenced code blocks blanked, so nothing inside them counts. */
function proseLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  let fence: string | null = null;
  return lines.map((line) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1]![0]!.repeat(m[1]!.length);
      return '';
    }
    if (fence !== null) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      return '';
    }
    return line;
  });
}

/** Every anchor a Markdown file offers: its headings' slugs (duplicates get -1, -2, …) and explicit ids. */
export function markdownAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const add = (heading: string): void => {
    const base = githubSlug(headingText(heading));
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
  };
  const lines = proseLines(text);
  lines.forEach((line, i) => {
    const atx = /^\s{0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) {
      add(atx[1] ?? '');
    } else if (i > 0 && /^\s{0,3}(=+|-+)\s*$/.test(line)) {
      const previous = lines[i - 1]!;
      // A setext heading underlines a paragraph line; not a list item, a table row or a blank line.
      if (previous.trim() !== '' && !/^\s*([-*+]\s|\d+[.)]\s|\||#)/.test(previous)) add(previous.trim());
    }
    for (const m of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/gi)) anchors.add(m[1]!);
  });
  return anchors;
}

/** Files under `dir` (relative to root), walking real folders only: a symlinked node_modules is not entered. */
function walk(root: string, dir: string, keep: (file: string) => boolean): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs) || !lstatSync(abs).isDirectory()) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) out.push(...walk(root, rel, keep));
    } else if (entry.isFile() && keep(rel)) {
      out.push(rel);
    }
  }
  return out.sort();
}

const isMarkdown = (file: string): boolean => file.endsWith('.md');

/** Every Markdown file of the repository. */
export function markdownFiles(root: string): string[] {
  return walk(root, '', isMarkdown);
}

/** The files whose text is checked for citations and outside references. */
export function citingFiles(root: string): string[] {
  const isCiting = (file: string): boolean => isMarkdown(file) || SOURCE_EXTENSIONS.has(path.extname(file));
  const files = CITING_DIRS.flatMap((dir) => walk(root, dir, isCiting));
  for (const file of CITING_FILES) if (existsSync(path.join(root, file))) files.push(file);
  return files;
}

/** Reads Markdown files' anchors once each. */
class AnchorIndex {
  private readonly cache = new Map<string, Set<string>>();
  constructor(private readonly root: string) {}

  of(file: string): Set<string> {
    let anchors = this.cache.get(file);
    if (!anchors) {
      anchors = markdownAnchors(readFileSync(path.join(this.root, file), 'utf8'));
      this.cache.set(file, anchors);
    }
    return anchors;
  }
}

/** Whether `target` (a path relative to the root, `/`-separated) exists; why not, if it does not. */
function checkTarget(root: string, index: AnchorIndex, target: string, anchor: string | null): string | null {
  const abs = path.join(root, target);
  if (target !== '' && !existsSync(abs)) return `${target} does not exist`;
  if (anchor === null || anchor === '') return null;
  if (!target.endsWith('.md') || !statSync(abs).isFile()) return null;
  const anchors = index.of(target);
  if (anchors.has(anchor)) return null;
  return `${target} has no heading with the anchor #${anchor}`;
}

/** `docs/….md#anchor` citations whose file or heading does not exist. */
export function brokenCitations(root: string): Problem[] {
  const index = new AnchorIndex(root);
  const problems: Problem[] = [];
  for (const file of citingFiles(root)) {
    const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      for (const m of line.matchAll(CITATION)) {
        const why = checkTarget(root, index, m[1]!, m[2] ?? null);
        if (why !== null)
          problems.push({ file, line: i + 1, rule: 'cites a missing document or heading', detail: why });
      }
    });
  }
  return problems;
}

/**
 * A path of the repository written in a comment or a document: a top folder and what follows, up
 * to the first character no path has. A pattern (`feeds-*.test.ts`, `{a,b}`) or a placeholder
 * (`kinds/<name>/`) is cut there, and what is left before it must still exist.
 */
const REPO_PATH = /(?<![\w/.@-])((?:src|commands|harness|test|deploy|bin|docs)\/(?:[\w.-]+\/)*[\w.-]*)(?![\w.*{<>/-])/g;

/** Paths of the repository named in the code and the docs that do not exist (moved, or never made). */
export function missingPaths(root: string): Problem[] {
  const problems: Problem[] = [];
  for (const file of citingFiles(root)) {
    const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      for (const m of line.matchAll(REPO_PATH)) {
        // A trailing dot ends a sentence, not the name.
        const named = m[1]!.replace(/\.+$/, '');
        if (!existsSync(path.join(root, named)))
          problems.push({ file, line: i + 1, rule: 'names a path that does not exist', detail: named });
      }
    });
  }
  return problems;
}

/** A link target's percent-escapes decoded; a malformed one is left as written (and then not found). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Relative links in Markdown files whose file or heading does not exist. */
export function brokenMarkdownLinks(root: string): Problem[] {
  const index = new AnchorIndex(root);
  const problems: Problem[] = [];
  for (const file of markdownFiles(root)) {
    const lines = proseLines(readFileSync(path.join(root, file), 'utf8'));
    lines.forEach((line, i) => {
      // Inline code is shown as written, never a link.
      const prose = line.replace(/(`+)[^`]*?\1/g, '');
      const targets = [...prose.matchAll(INLINE_LINK)].map((m) => m[1]!);
      const definition = REFERENCE_DEFINITION.exec(prose);
      if (definition) targets.push(definition[1]!);
      for (const raw of targets) {
        // Absolute URLs (http:, mailto:, …) and protocol-relative ones are not the repository's.
        if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) continue;
        const hash = raw.indexOf('#');
        const pathPart = decoded(hash === -1 ? raw : raw.slice(0, hash));
        const anchor = hash === -1 ? null : decoded(raw.slice(hash + 1));
        const target =
          pathPart === ''
            ? file
            : pathPart.startsWith('/')
              ? pathPart.slice(1)
              : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
        const why = target.startsWith('..')
          ? `${raw} leaves the repository`
          : checkTarget(root, index, target.replace(/\/$/, ''), anchor);
        if (why !== null) problems.push({ file, line: i + 1, rule: 'broken link', detail: `(${raw}): ${why}` });
      }
    });
  }
  return problems;
}

/** Lines citing an issue tracker, research notes or an outside spec instead of the repository's docs. */
export function outsideReferences(root: string): Problem[] {
  const problems: Problem[] = [];
  for (const file of citingFiles(root)) {
    const code = !isMarkdown(file);
    const lines = readFileSync(path.join(root, file), 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      for (const { rule, pattern, codeOnly } of OUTSIDE_REFERENCES) {
        if (codeOnly && !code) continue;
        const m = pattern.exec(line);
        if (m) problems.push({ file, line: i + 1, rule, detail: `"${m[0]}"` });
      }
    });
  }
  return problems;
}

/** Markdown table rows longer than MAX_TABLE_ROW characters, in every Markdown file of the repository. */
export function longTableRows(root: string): Problem[] {
  const problems: Problem[] = [];
  for (const file of markdownFiles(root)) {
    proseLines(readFileSync(path.join(root, file), 'utf8')).forEach((line, i) => {
      const length = [...line].length;
      if (/^\s{0,3}\|/.test(line) && length > MAX_TABLE_ROW) {
        problems.push({
          file,
          line: i + 1,
          rule: `table row over ${MAX_TABLE_ROW} characters`,
          detail: `${length} characters (use a list for long cells)`,
        });
      }
    });
  }
  return problems;
}
