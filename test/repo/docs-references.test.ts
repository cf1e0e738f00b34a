/**
 * What the code and the docs cite must be openable from the repository: `docs/….md#heading`
 * citations and relative Markdown links resolve (anchors computed as GitHub computes them), nothing
 * points at an issue tracker or research notes outside the repository, and no Markdown table row is
 * longer than 160 characters. Each failure lists `file:line: rule: detail`.
 *
 * The checker is first run on a throwaway tree with one planted fault per rule, so a pass on the
 * repository means the rules were applied, not that they could not see.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brokenCitations,
  brokenMarkdownLinks,
  formatProblem,
  githubSlug,
  longTableRows,
  markdownAnchors,
  missingPaths,
  outsideReferences,
  type Problem,
} from '../support/doc-references.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const lines = (problems: Problem[]): string[] => problems.map(formatProblem);

// The planted tree's docs folder, spelt so that this file does not itself cite documents that do
// not exist in the repository.
const D = ['docs', ''].join('/');

describe('GitHub anchors of Markdown headings', () => {
  it('lower-cases, drops punctuation, keeps underscores and hyphens, and numbers duplicates', () => {
    expect(githubSlug('Competitor settings (read-modify-write)')).toBe('competitor-settings-read-modify-write');
    expect(githubSlug('READY and GUILD_CREATE')).toBe('ready-and-guild_create');
    expect(githubSlug('Pointing discord.js at the sandbox')).toBe('pointing-discordjs-at-the-sandbox');
    expect(githubSlug('Åtta små öar')).toBe('åtta-små-öar');
    const anchors = markdownAnchors(
      [
        '# Title',
        '## Time zones',
        '### Time zones',
        '## `code` and [a link](x.md) *here*',
        '```',
        '## Not a heading',
        '```',
        'Setext heading',
        '---',
        '<a name="kept-anchor"></a>',
      ].join('\n'),
    );
    expect([...anchors].sort()).toEqual(
      ['code-and-a-link-here', 'kept-anchor', 'setext-heading', 'time-zones', 'time-zones-1', 'title'].sort(),
    );
  });
});

describe('the checker on a tree with planted faults', () => {
  let root: string;
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'doc-refs-'));
    write(`${D}guide.md`, '# Guide\n\n## Time zones\n\nSee [the other](other.md#start) and [here](#time-zones).\n');
    write(`${D}other.md`, '# Other\n\n## Start\n\n[broken](guide.md#nowhere) [gone](missing.md) [out](../../x.md)\n');
    write('README.md', `# Readme\n\n| a | b |\n| - | - |\n| ${'x'.repeat(170)} |\n\n[ok](${D}guide.md)\n`);
    write('SECURITY.md', '# Security\n');
    // The outside references are put together here so that this file itself does not contain them.
    const section = '\u00a7';
    write(
      'src/a.ts',
      [
        `// Fine (${D}guide.md#time-zones), (SECURITY.md).`,
        `// Wrong heading (${D}guide.md#zones).`,
        `// Missing file (${D}absent.md).`,
        `// Outside: ${'issue'} 12 ${section}2.`,
        `// Outside: ${'wire'} notes 6.`,
        `// Outside: ${'notes'}/iof-xml.md.`,
        `// Outside: the ${'spec'} 4.4.`,
        `// Moved: src/${'gone'}/file.ts.`,
        `// A pattern: src/a.ts, src/${'*'}.ts and src/kinds/<name>/.`,
      ].join('\n'),
    );
    write('test/b.test.ts', `// ../${'shared'}/notes/x\n`);
    write('node_modules/pkg/README.md', `| ${'y'.repeat(200)} |\n`);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds citations of missing documents and headings, with file and line', () => {
    expect(lines(brokenCitations(root))).toEqual([
      `src/a.ts:2: cites a missing document or heading: ${D}guide.md has no heading with the anchor #zones`,
      `src/a.ts:3: cites a missing document or heading: ${D}absent.md does not exist`,
    ]);
  });

  it('finds relative Markdown links that do not resolve', () => {
    expect(lines(brokenMarkdownLinks(root))).toEqual([
      `${D}other.md:5: broken link: (guide.md#nowhere): ${D}guide.md has no heading with the anchor #nowhere`,
      `${D}other.md:5: broken link: (missing.md): ${D}missing.md does not exist`,
      `${D}other.md:5: broken link: (../../x.md): ../../x.md leaves the repository`,
    ]);
  });

  it('finds references to issues, research notes and outside specs', () => {
    expect(lines(outsideReferences(root)).map((l) => l.replace(/: "[^"]*"$/, ''))).toEqual([
      'src/a.ts:4: cites an issue',
      'src/a.ts:4: cites a numbered section of an outside document',
      'src/a.ts:5: cites the research notes',
      'src/a.ts:6: cites the research notes',
      'src/a.ts:7: cites a spec outside the repository',
      'test/b.test.ts:1: cites the research notes',
    ]);
  });

  it('finds paths of the repository that do not exist, a pattern or placeholder cut where it starts', () => {
    expect(lines(missingPaths(root)).filter((l) => !l.includes('docs-references'))).toContain(
      'src/a.ts:8: names a path that does not exist: src/gone/file.ts',
    );
    expect(lines(missingPaths(root)).join('\n')).not.toContain('src/a.ts:9:');
  });

  it('finds table rows over 160 characters, outside node_modules', () => {
    expect(lines(longTableRows(root))).toEqual([
      'README.md:5: table row over 160 characters: 174 characters (use a list for long cells)',
    ]);
  });
});

describe('the repository', () => {
  it('cites only documents and headings that exist', () => {
    expect(lines(brokenCitations(repo))).toEqual([]);
  });

  it('has no relative Markdown link that does not resolve', () => {
    expect(lines(brokenMarkdownLinks(repo))).toEqual([]);
  });

  it('cites no issue, research note or outside spec', () => {
    expect(lines(outsideReferences(repo))).toEqual([]);
  });

  it('names only paths of the repository that exist (a comment or page left behind by a move)', () => {
    // This test and its checker plant paths that do not exist, on purpose.
    const planted = new Set(['test/repo/docs-references.test.ts', 'test/support/doc-references.ts']);
    expect(lines(missingPaths(repo).filter((p) => !planted.has(p.file)))).toEqual([]);
  });

  it('has no Markdown table row over 160 characters', () => {
    expect(lines(longTableRows(repo))).toEqual([]);
  });
});
