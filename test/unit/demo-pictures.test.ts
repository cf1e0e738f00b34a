/**
 * The demo's picture folder (harness/demo/pictures.ts): every attached file is written under a name
 * that stays in the folder, none overwrites another of the same run, and the transcript's line
 * names the file's path and its alt text.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoPictures, safeFileName } from '../../harness/demo/pictures.js';

describe('demo pictures', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('makes any name a plain file name that cannot leave the folder', () => {
    expect(safeFileName('graph.png')).toBe('graph.png');
    expect(safeFileName('Åsa Öberg splits.png')).toBe('Asa-Oberg-splits.png');
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('/abs/path')).toBe('abs-path');
    expect(safeFileName('<script>.png')).toBe('script-.png');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName('x'.repeat(300))).toHaveLength(120);
  });

  it('writes each file once under its own name and names its path and alt text', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-demo-pictures-test-'));
    const folder = path.join(dir, 'pictures');
    const pictures = new DemoPictures(folder);
    expect(existsSync(folder)).toBe(false);
    expect(pictures.save('part2-1-help', [])).toEqual([]);
    // Nothing attached, nothing made.
    expect(existsSync(folder)).toBe(false);
    const graph = { filename: 'graph.png', size: 3, description: 'The splits graph of H21', data: Buffer.from('one') };
    const first = pictures.save('part2-17-splits', [graph]);
    const again = pictures.save('part2-17-splits', [{ ...graph, data: Buffer.from('two'), description: undefined }]);
    const firstPath = path.join(folder, 'part2-17-splits-graph.png');
    const secondPath = path.join(folder, 'part2-17-splits-graph-2.png');
    expect(first).toEqual([`[picture graph.png saved as ${firstPath}: "The splits graph of H21"]`]);
    expect(again).toEqual([`[picture graph.png saved as ${secondPath}]`]);
    expect(readdirSync(folder).sort()).toEqual(['part2-17-splits-graph-2.png', 'part2-17-splits-graph.png']);
    expect(readFileSync(firstPath, 'utf8')).toBe('one');
    expect(readFileSync(secondPath, 'utf8')).toBe('two');
    expect(pictures.files).toEqual([firstPath, secondPath]);
  });
});
