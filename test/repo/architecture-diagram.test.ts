/**
 * The architecture page's diagram is the code's: drawn from dependency-cruiser's reading of the real
 * imports (harness/docs/architecture-diagram.ts), it must match what is committed; and the rooms'
 * imports form no loop, which the dependency rule's table promises (.dependency-cruiser.cjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARCHITECTURE_PAGE,
  committedDiagram,
  diagramOf,
  LEAVES,
  roomImports,
} from '../../harness/docs/architecture-diagram.js';

const require = createRequire(import.meta.url);
const { layers } = require('../../.dependency-cruiser.cjs') as {
  layers: { LAYERS: Record<string, string[]>; HARNESS: Record<string, string[]> };
};

describe('docs/architecture.md: the rooms and their imports', () => {
  let imports: Array<[string, string]>;
  beforeAll(async () => {
    imports = await roomImports();
  }, 120_000);

  it('draws the imports the code has now (run `npm run docs:architecture` after moving one)', () => {
    expect(committedDiagram(readFileSync(ARCHITECTURE_PAGE, 'utf8'))).toBe(diagramOf(imports));
  });

  it('has no loop between rooms: the table of the dependency rule points one way', () => {
    const table = { ...layers.LAYERS, ...layers.HARNESS };
    // Every room of the code is in the table, and every room imports only rooms the table lets it.
    for (const [from, to] of imports) {
      expect(Object.keys(table), `${from} is a room of the rule`).toContain(from);
      expect(table[from], `${from} → ${to}`).toContain(to);
    }
    // A depth-first walk of the real imports finds no way back to a room already on the path.
    const next = new Map<string, string[]>();
    for (const [from, to] of imports) next.set(from, [...(next.get(from) ?? []), to]);
    const done = new Set<string>();
    const loops: string[] = [];
    const visit = (room: string, path: string[]): void => {
      if (path.includes(room)) {
        loops.push([...path.slice(path.indexOf(room)), room].join(' → '));
        return;
      }
      if (done.has(room)) return;
      for (const to of next.get(room) ?? []) visit(to, [...path, room]);
      done.add(room);
    };
    for (const room of next.keys()) visit(room, []);
    expect(loops).toEqual([]);
    expect(LEAVES.every((leaf) => (layers.LAYERS[leaf] ?? ['?']).length === 0)).toBe(true);
  });
});
