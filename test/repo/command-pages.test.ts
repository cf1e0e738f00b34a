/**
 * The commands' names in three languages, the feed kinds and the invite's permissions on the
 * members' and admins' pages are written from the definitions Discord gets and the kinds' registry
 * (harness/docs/command-pages.ts): what is committed must be what it writes now, and what it writes
 * must follow a new command, option or kind without anyone touching the docs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandsFor } from '../../commands/index.js';
import { BOT_PERMISSIONS } from '../../src/bot/invite.js';
import { botPermissions, KINDS } from '../../src/feeds/registry.js';
import { t } from '../../src/i18n/index.js';
import {
  adminCommandsTable,
  COMMANDS_WRITER,
  commandParts,
  kindsTable,
  memberCommandsTable,
  permissionsTable,
} from '../../harness/docs/command-pages.js';
import { REPO, withPart, writtenPages } from '../../harness/docs/written.js';
import { PermissionFlagsBits } from 'discord.js';
import { z } from 'zod';
import { publishTo } from '../../src/feeds/delivery/publish.js';
import { channelFeed } from '../../src/feeds/feed.js';
import { defineKind, type FeedKind } from '../../src/feeds/kind.js';

/** A kind that is in no registry: a channel kind needing one permission more than posting. */
function newKind(): FeedKind {
  const Options = z.object({});
  return defineKind<z.infer<typeof Options>>({
    name: 'probe',
    // Words the catalogues have: a kind's own words live in the catalogues, which a test cannot add to.
    label: 'feeds.show.title',
    noticeLabel: 'feeds.show.title',
    audience: 'channel',
    options: Options,
    feed: channelFeed({
      name: 'probe',
      cadence: () => 60 * 60_000,
      fetch: async () => null,
      items: () => [],
      deliver: publishTo({ name: 'probe', summaryTitle: 'scheduler.summary.generic' }),
      latest: async () => null,
    }),
    permissions: [[PermissionFlagsBits.ManageWebhooks, 'status.name']],
    preview: () => Promise.resolve(null),
    describe: async () => [],
  }) as FeedKind;
}

const definitions = commandsFor(KINDS).map((c) => c.definition);

describe('docs:commands', () => {
  it('the committed pages are what it writes (run `npm run docs:commands` after changing a command or kind)', async () => {
    const pages = await writtenPages(commandParts(), COMMANDS_WRITER);
    expect([...pages.keys()].sort()).toEqual(['docs/admins.md', 'docs/members.md']);
    for (const [page, text] of pages) expect(readFileSync(path.join(REPO, page), 'utf8'), page).toBe(text);
  });

  it('names every admin subcommand and option in Swedish and Norwegian, as Discord gets them', () => {
    const table = adminCommandsTable(definitions);
    expect(table).toContain('| **`/setup linking`** | **`/inställningar koppling`** | **`/oppsett kobling`** |');
    expect(table).toContain('| `[credentials]` | `[inloggning]` | `[innlogging]` |');
    expect(table).toContain('| **`/feeds on`** | **`/autoinlägg på`** | **`/autoinnlegg på`** |');
    expect(table).toContain('| `<kind>` | `<typ>` | `<type>` |');
    // Every subcommand of every command offered to admins only, and no member's command.
    const admins = definitions.filter((d) => d.default_member_permissions);
    expect(admins.map((d) => d.name).sort()).toEqual(['admin', 'cup', 'feeds', 'setup']);
    for (const d of admins)
      for (const sub of d.options ?? [])
        expect(table, `${d.name} ${sub.name}`).toContain(`**\`/${d.name} ${sub.name}\`**`);
    expect(table).not.toContain('/results');
  });

  it("lists every member's command once, the admins' apart", () => {
    const rows = memberCommandsTable(definitions).split('\n').slice(2);
    expect(rows).toContain('| `/season` | `/säsong` | `/sesong` |');
    expect(rows).toHaveLength(definitions.filter((d) => !d.default_member_permissions).length);
    expect(rows.join('\n')).not.toContain('/feeds');
  });

  it('gives every permission the invite asks for, with where it is needed', () => {
    const table = permissionsTable(KINDS);
    const rows = table.split('\n').slice(2);
    // The invite's integer is exactly the permissions listed.
    expect(rows).toHaveLength(botPermissions().length);
    expect(botPermissions().reduce((all, [bit]) => all | bit, 0n)).toBe(BOT_PERMISSIONS);
    for (const [, key] of botPermissions()) expect(table).toContain(`| ${t('en', key)} | ${t('sv', key)} |`);
    expect(table).toContain(
      '| Create Events | Skapa evenemang | Opprett arrangementer | `calendar`, in the server (its role) |',
    );
    expect(table).toContain('| Manage Events |');
    expect(table).toContain('| Send Messages | Skicka meddelanden | Send meldinger | every channel the bot posts in |');
  });

  it('follows a new kind: its name in /feeds and /setup, its label and its permissions', () => {
    const kind = newKind();
    const kinds = [...KINDS, kind];
    expect(kindsTable(kinds).split('\n').at(-1)).toBe(
      `| \`${kind.name}\` | ${t('en', kind.label)} | ${t('sv', kind.label)} | ${t('nb', kind.label)} |`,
    );
    const parts = commandParts(kinds);
    expect(parts.map((p) => p.name)).toEqual(['command names', 'permissions', 'feed kinds', 'admin commands']);
    expect(parts.find((p) => p.name === 'feed kinds')!.markdown).toContain(`\`${kind.name}\``);
    // Its permission is asked for by the invite, and said to be the kind's, in its channel.
    expect(parts.find((p) => p.name === 'permissions')!.markdown).toContain(
      `| ${t('en', 'status.name')} | ${t('sv', 'status.name')} | ${t('nb', 'status.name')} | \`probe\`, in its channel |`,
    );
  });

  it('refuses a page without the markers of a part, naming them', () => {
    expect(() =>
      withPart('# A page\n', { page: 'a-page.md', name: 'feed kinds', markdown: '| a |' }, COMMANDS_WRITER),
    ).toThrow('a-page.md has no markers for feed kinds (add "<!-- End of feed kinds. -->"');
  });
});
