import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOT_PERMISSIONS } from '../../src/bot/invite.js';
import { CLI_COMMANDS } from '../../src/cli/main.js';

const guide = readFileSync('docs/operators.md', 'utf8');
const template = readFileSync('.env.example', 'utf8');

describe('docs/operators.md keeps up with the program', () => {
  it('explains every variable of .env.example', () => {
    const variables = [...new Set([...template.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!))];
    expect(variables.length).toBeGreaterThan(10);
    expect(variables.filter((name) => !guide.includes(`\`${name}\``))).toEqual([]);
  });

  it('has a section for every command', () => {
    const runnable = Object.entries(CLI_COMMANDS).filter(([, c]) => c.run !== undefined);
    expect(runnable.filter(([name]) => !guide.includes(`### \`${name}\``))).toEqual([]);
  });

  it("gives the invite URL's permission integer the program computes", () => {
    expect(guide).toContain(`permissions=${BOT_PERMISSIONS}`);
    expect(guide).toContain(`\`${BOT_PERMISSIONS}\``);
  });

  it('has no table row over 160 characters', () => {
    const long = guide.split('\n').filter((line) => line.startsWith('|') && line.length > 160);
    expect(long).toEqual([]);
  });
});
