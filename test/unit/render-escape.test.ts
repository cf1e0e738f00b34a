/**
 * The one escape every text from Eventor goes through (`escapeEventorText`, `escapeName`,
 * `plainText` in src/render/format.ts), against a table of nasty inputs.
 */
import { describe, expect, it } from 'vitest';
import { renderScheduledEvent } from '../../src/render/calendar.js';
import { codeSafe } from '../../src/render/format.js';
import {
  escapeEventorText,
  escapeName,
  NAME_MAX,
  plainText,
  renderEventCard,
  renderEventList,
} from '../../src/render/index.js';
import { ctx, event } from '../support/render-fixtures.js';

const ZWSP = '\u200b';

/** [what, input, what escapeName must give]. */
const NAMES: Array<[string, string, string]> = [
  ['plain name', 'Anna Öberg', 'Anna Öberg'],
  ['bold', '**Bold** Club', '\\*\\*Bold\\*\\* Club'],
  ['italic underscores', '_x_ __u__', '\\_x\\_ \\_\\_u\\_\\_'],
  ['strike and spoiler', '~~s~~ ||sp||', '\\~\\~s\\~\\~ \\|\\|sp\\|\\|'],
  ['inline code', '`code`', '\\`code\\`'],
  ['four backticks', '````x````', '\\`\\`\\`\\`x\\`\\`\\`\\`'],
  ['masked link', '[click](https://evil.example)', '\\[click\\](https://evil.example)'],
  ['lone bracket', 'a] (b', 'a\\] (b'],
  ['everyone and here', '@everyone @here', `@${ZWSP}everyone @${ZWSP}here`],
  [
    'user, role, channel mentions',
    '<@123> <@!4> <@&456> <#789>',
    `<${ZWSP}@123> <${ZWSP}@!4> <${ZWSP}@&456> <${ZWSP}#789>`,
  ],
  ['command mention', '</cmd:1>', `<${ZWSP}/cmd:1>`],
  ['timestamp and emoji', '<t:1:R> <:e:1> <a:e:2>', `<${ZWSP}t:1:R> <${ZWSP}:e:1> <${ZWSP}a:e:2>`],
  ['suppressed link', '<https://evil.example>', `<${ZWSP}https://evil.example>`],
  ['a lone less-than is left', 'a < b', 'a < b'],
  ['heading at the start', '# Big', '\\# Big'],
  ['list at the start', '- item', '\\- item'],
  ['numbered list at the start', '1. first', '1\\. first'],
  ['block quote', '> quote', '\\> quote'],
  ['multi-line block quote', '>>> all', '\\>>> all'],
  ['subtext', '-# small', '\\-# small'],
  ['newline folded', 'two\nlines', 'two lines'],
  ['CR, NEL, line and paragraph separators folded', 'a\r\nb\u0085c\u2028d\u2029e', 'a b c d e'],
  ['newline then heading is one line', 'x\n# head', 'x # head'],
  ['control characters stripped', 'a\u0000b\u0007c\u001bd\u007fe', 'abcde'],
  ['bidi overrides, isolates and marks stripped', '\u202Eevil\u202C \u2066x\u2069 \u200Fy\u200E\u061C', 'evil x y'],
  ['backslash escaped', 'a\\*b', 'a\\\\\\*b'],
];

describe('escapeName: one line from Eventor for a message', () => {
  it.each(NAMES)('%s', (_what, input, expected) => {
    expect(escapeName(input)).toBe(expected);
  });

  it('cuts at NAME_MAX (100) with an ellipsis before escaping, so an escape is never split', () => {
    const long = '*'.repeat(3000);
    const escaped = escapeName(long);
    expect(escaped).toBe(`${'\\*'.repeat(NAME_MAX - 1)}…`);
    expect(escapeName('a'.repeat(3000))).toHaveLength(NAME_MAX);
    expect(escapeName('a'.repeat(3000)).endsWith('…')).toBe(true);
    expect(escapeName('a'.repeat(NAME_MAX))).toBe('a'.repeat(NAME_MAX));
    expect(escapeName('abcdef', { max: 4 })).toBe('abc…');
    // Cut inside a mention: what is left still cannot form one.
    expect(escapeName(`${'x'.repeat(98)}<@123>`)).toBe(`${'x'.repeat(98)}<${ZWSP}…`);
  });

  it('a name built to break everything stays one line, bounded, with nothing live left', () => {
    const nasty = Array.from(
      { length: 60 },
      (_, i) => `**Evil${i}** @everyone <@123> [click](https://evil.example)\n# h\u202E`,
    ).join('');
    const escaped = escapeName(nasty);
    expect(escaped).not.toContain('\n');
    expect(escaped).not.toContain('\u202E');
    expect(escaped).not.toMatch(/@everyone|<@\d/);
    expect(escaped).not.toMatch(/(?<!\\)\]\(http/);
    expect(escaped).not.toMatch(/(?<!\\)\*\*/);
    expect(escaped.length).toBeLessThanOrEqual(2 * NAME_MAX);
    expect(escaped.endsWith('…')).toBe(true);
  });

  it('is not fooled by map passing an index', () => {
    expect(['**a**', '**b**'].map((name) => escapeName(name))).toEqual(['\\*\\*a\\*\\*', '\\*\\*b\\*\\*']);
  });

  it('handles a 20,000-runner list of names quickly enough to stay a non-issue (bounded cache, pure)', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `Runner${i % 2000} **Family** <@${i}>`);
    const out = names.map((name) => escapeName(name));
    expect(out).toHaveLength(20_000);
    expect(out.every((name) => !/<@\d/.test(name))).toBe(true);
  });
});

describe('escapeEventorText: free text (an organiser message, activity information)', () => {
  it('keeps line breaks and escapes each line start', () => {
    expect(escapeEventorText('# Head\n> quote\n- item\n-# sub\nplain')).toBe(
      '\\# Head\n\\> quote\n\\- item\n\\-# sub\nplain',
    );
  });

  it('turns every kind of line break into \\n and strips controls and bidi', () => {
    expect(escapeEventorText('a\r\nb\rc\u2028d\u0007\u202Ee')).toBe('a\nb\nc\nde');
  });

  it('breaks mentions and masked links on any line', () => {
    const text = escapeEventorText('ok\n@here <@&1> [x](https://evil.example)');
    expect(text).toBe(`ok\n@${ZWSP}here <${ZWSP}@&1> \\[x\\](https://evil.example)`);
  });
});

describe('plainText: labels Discord shows without markdown', () => {
  it('escapes nothing (a backslash would show) but strips, folds and breaks mentions', () => {
    expect(plainText('**Bold** [x](y)')).toBe('**Bold** [x](y)');
    expect(plainText(' two\n lines\u202E ')).toBe('two lines');
    expect(plainText('@everyone <@1>')).toBe(`@${ZWSP}everyone <${ZWSP}@1>`);
  });

  it('with a maximum, cuts to at most that many characters, the mention breaks counted', () => {
    const cut = plainText('@everyone '.repeat(50), 100);
    expect(cut).toHaveLength(100);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toContain('@everyone');
  });

  it('changes nothing when cleaning what it cleaned: a text cleaned at its source and again where it is sent stays as it was', () => {
    const hostile = '\u202E@everyone <@&1> <#2> </c:3> <t:0:R>\r\nline\u2028two\u0085three';
    const once = plainText(hostile);
    expect(plainText(once)).toBe(once);
    expect(plainText(once, 20)).toBe(plainText(hostile, 20));
  });
});

describe('codeSafe: text inside a code block (the split table’s control codes)', () => {
  it('is one line, with controls, bidi and backticks gone and mentions broken', () => {
    expect(codeSafe('31\u202E`x`\u2028@here\r\n<@1>')).toBe(`31ˋxˋ @${ZWSP}here <${ZWSP}@1>`);
  });
});

describe('an id from Eventor, shown where a name is missing, is cleaned as a name is', () => {
  // Ids are text too: a custom Eventor may send any (docs/architecture.md, src/render/).
  const hostile = event({ id: '1\u202E@everyone <@&2>\n# x', name: '\u202E\u0007' });

  it('in a picker option, a card footer and a scheduled event name', () => {
    const list = renderEventList([hostile], ctx(), { page: 1, customIds: { page: (n) => `p:${n}`, pick: 'pick' } });
    const row = list.components![0]!.components[0]!;
    const label = 'options' in row ? row.options[0]!.label : '';
    const footer = renderEventCard(hostile, {}, ctx()).embeds![0]!.footer!.text;
    const name = renderScheduledEvent(hostile, 0, ctx())!.name;
    for (const text of [label, footer, name]) {
      expect(text).toContain(`1@${ZWSP}everyone <${ZWSP}@&2> # x`);
      expect(text).not.toMatch(/[\u202E\n]/);
    }
  });
});
