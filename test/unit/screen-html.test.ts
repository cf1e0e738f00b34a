/**
 * The Discord-like layout of `npm run docs:screens` (harness/demo/screen-html.ts): every text is
 * escaped (names from Eventor may hold `<script>`), Discord's markdown becomes the few tags it
 * should, and embeds, fields, pictures, buttons and the ephemeral note are laid out as Discord does.
 */
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  inlineHtml,
  markdownHtml,
  type Screen,
  type ScreenMessage,
  screenHtml,
} from '../../harness/demo/screen-html.js';
import { escapeEventorText } from '../../src/render/index.js';

/** The text a browser shows for a piece of this HTML: tags dropped, the five entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Every tag of a piece of HTML, by name. */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase());
}

/** The names of every attribute in every tag (values are always in double quotes). */
function attributesOf(html: string): Set<string> {
  const names = new Set<string>();
  for (const tag of html.matchAll(/<[a-z][a-z0-9]*((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/gi))
    for (const attribute of tag[1]!.matchAll(/\s+([a-z-]+)(?:="[^"]*")?/gi)) names.add(attribute[1]!.toLowerCase());
  return names;
}

const reader = { locale: 'en-GB', timeZone: 'Europe/Stockholm', now: Date.parse('2026-11-26T12:00:00Z') };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function message(overrides: Partial<ScreenMessage> = {}): ScreenMessage {
  return {
    author: { name: 'eventor-bot', bot: true },
    time: 'Today at 12:00',
    content: '',
    embeds: [],
    components: [],
    attachments: [],
    ephemeral: false,
    ...overrides,
  };
}

function page(messages: ScreenMessage[], extra: Partial<Screen> = {}): string {
  return screenHtml({ title: 'test', channel: 'allmänt', messages, reader, ...extra });
}

const HOSTILE = `<script>alert("x")</script><img src=x onerror='alert(1)'>&amp;`;

describe('screen layout: escaping', () => {
  it('escapes the five characters that matter in HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('shows hostile text from every place of a message as text, never as markup', () => {
    const html = page([
      message({
        author: { name: HOSTILE, bot: true },
        invokedBy: { user: HOSTILE, command: HOSTILE },
        time: HOSTILE,
        content: `**${HOSTILE}** \`${HOSTILE}\`\n\`\`\`\n${HOSTILE}\n\`\`\``,
        embeds: [
          {
            author: { name: HOSTILE },
            title: HOSTILE,
            url: 'https://example.org/"><script>',
            description: `> ${HOSTILE}\n- ${HOSTILE}\n# ${HOSTILE}`,
            fields: [
              { name: HOSTILE, value: HOSTILE, inline: true },
              { name: 'x', value: `[${HOSTILE}](https://example.org)` },
            ],
            footer: { text: HOSTILE },
            image: { url: 'attachment://chart.png' },
          },
        ],
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 1, label: HOSTILE, custom_id: 'a', emoji: { name: HOSTILE } },
              { type: 2, style: 5, label: HOSTILE, url: 'javascript:alert(1)' },
            ],
          },
          { type: 1, components: [{ type: 3, custom_id: 's', placeholder: HOSTILE, options: [] }] },
        ],
        attachments: [
          { filename: 'chart.png', size: PNG.length, contentType: 'image/png', description: HOSTILE, data: PNG },
          { filename: HOSTILE, size: 10, contentType: 'text/html', description: HOSTILE, data: Buffer.from(HOSTILE) },
        ],
      }),
    ]);
    // No element but the layout's own, no event handler, no script, nothing fetched from a URL.
    expect(new Set(tagsOf(html))).toEqual(
      new Set([
        'html',
        'head',
        'meta',
        'title',
        'style',
        'body',
        'div',
        'span',
        'strong',
        'code',
        'pre',
        'blockquote',
        'ul',
        'li',
        'h1',
        'img',
      ]),
    );
    expect(html).not.toMatch(/<script/i);
    expect(attributesOf(html)).toEqual(
      new Set(['lang', 'charset', 'http-equiv', 'content', 'id', 'class', 'style', 'src', 'alt']),
    );
    // Every tag is one of those the regular expressions above read whole: no stray `<` or `"`.
    expect(html.match(/</g)).toHaveLength(
      [...html.matchAll(/<\/?[a-z][a-z0-9]*((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>|<!doctype html>/gi)].length,
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/src="(?!data:image\/png;base64,)/);
    expect(html).not.toContain('href=');
    // ...and the text is there to read, as typed: the author, the title, the field, the file name.
    expect(html).toContain(escapeHtml(HOSTILE));
    expect(textOf(html)).toContain(HOSTILE);
    // The text file's bytes are not put on the page.
    expect(html).not.toContain(Buffer.from(HOSTILE).toString('base64'));
  });

  it('keeps the page closed: a policy that allows no script, no network and only carried pictures', () => {
    const html = page([message({ content: 'hi' })]);
    expect(html).toContain(`content="default-src 'none'; img-src data:; font-src file:; style-src 'unsafe-inline'"`);
  });

  it('shows a name from Eventor, as the bot escapes it, exactly as it is spelled', () => {
    const names = [
      'Anna Öberg',
      '**Bold** Club',
      '_x_ __u__ ~~s~~ ||sp||',
      '`code` ````x````',
      '[click](https://evil.example)',
      '<script>alert(1)</script>',
      'a] (b & c < d > e',
      'back\\slash',
      '# Big',
      '- item',
      '> quote',
      '-# small',
      'Åsa "Snabb" O\'Neill',
    ];
    for (const name of names) {
      const shown = textOf(markdownHtml(escapeEventorText(name)));
      // The bot breaks mentions and `<…>` with a zero-width space, which shows as nothing.
      expect(shown.replace(/\u200b/g, ''), name).toBe(name);
    }
  });
});

describe('screen layout: markdown', () => {
  it('turns Discord markdown into its tags', () => {
    expect(inlineHtml('**bold** *it* _it_ __under__ ~~gone~~ `a<b`')).toBe(
      '<strong>bold</strong> <em>it</em> <em>it</em> <u>under</u> <s>gone</s> <code>a&lt;b</code>',
    );
    expect(inlineHtml('**bold with *italic***')).toBe('<strong>bold with <em>italic</em></strong>');
    expect(inlineHtml('[Eventor](https://eventor.orientering.se/Events/Show/1)')).toBe(
      '<span class="link">Eventor</span>',
    );
    expect(inlineHtml('see https://example.org/a_b_c.')).toBe(
      'see <span class="link">https://example.org/a_b_c</span>.',
    );
    expect(inlineHtml('\\*not italic\\*')).toBe('*not italic*');
    expect(inlineHtml('snake_case_name stays')).toBe('snake_case_name stays');
  });

  it('shows mentions by name', () => {
    const names = new Map([
      ['1', 'astrid'],
      ['2', 'resultat'],
    ]);
    expect(inlineHtml('<@1> in <#2>, <@9>', names)).toBe(
      '<span class="mention">@astrid</span> in <span class="mention">#resultat</span>, <span class="mention">@unknown-user</span>',
    );
  });

  it('keeps a code block as it is typed, columns and all, and formats the lines around it', () => {
    const table = ' #  Code   Leg\n 1  51    2:41\n    Finish 2:48';
    const html = markdownHtml(`**D21** (10)\n\`\`\`\n${table}\n\`\`\`\nafter **it**`);
    expect(html).toBe(
      `<div class="line"><strong>D21</strong> (10)</div><pre><code>${table}</code></pre><div class="line">after <strong>it</strong></div>`,
    );
  });

  it('makes headings, subtext, quotes and bulleted lists of their lines', () => {
    expect(markdownHtml('# Big\n-# small\n> said\n- one\n- two\nplain')).toBe(
      '<h1>Big</h1><div class="subtext">small</div><blockquote>said</blockquote>' +
        '<ul><li>one</li><li>two</li></ul><div class="line">plain</div>',
    );
  });
});

describe('screen layout: messages', () => {
  it('lays out the command line, author, APP tag, embed with its colour bar, title, description and footer', () => {
    const html = page([
      message({
        invokedBy: { user: 'Astrid', command: '/events' },
        embeds: [
          {
            title: 'Upcoming events',
            description: '1. <t:1796547600:D> **Öjaberget**',
            color: 0xf27a1a,
            footer: { text: 'Page 1 of 1' },
            timestamp: '2026-11-26T12:00:00.000Z',
          },
        ],
      }),
    ]);
    expect(textOf(html)).toContain('Astrid used /events');
    expect(html).toContain('<span class="author">eventor-bot</span><span class="app-tag">APP</span>');
    expect(html).toContain('border-left-color: #f27a1a');
    expect(html).toContain('<div class="embed-title">Upcoming events</div>');
    // The timestamp markup as the reader's Discord shows it, in her language and zone.
    expect(html).toContain('1. 6 December 2026 <strong>Öjaberget</strong>');
    expect(textOf(html)).toContain('Page 1 of 1 • 26 November 2026 at 13:00');
    expect(html).not.toContain('Only you can see this');
  });

  it('puts inline fields three to a row and a field that is not inline on a row of its own', () => {
    const field = (name: string, inline: boolean) => ({ name, value: 'v', inline });
    const html = page([
      message({
        embeds: [
          {
            fields: [
              field('a', true),
              field('b', true),
              field('c', true),
              field('d', true),
              field('e', false),
              field('f', true),
              field('g', true),
            ],
          },
        ],
      }),
    ]);
    const columns = [...html.matchAll(/grid-column: (\d+) \/ span (\d+)">.*?embed-field-name">(\w)</g)].map(
      (m) => `${m[3]}:${m[1]}+${m[2]}`,
    );
    expect(columns).toEqual(['a:1+4', 'b:5+4', 'c:9+4', 'd:1+12', 'e:1+12', 'f:1+6', 'g:7+6']);
  });

  it('shows the embed picture inside the embed, other pictures under it, and other files as a file box', () => {
    const html = page([
      message({
        embeds: [{ title: 'Splits', image: { url: 'attachment://graph.png' } }],
        attachments: [
          { filename: 'graph.png', size: PNG.length, contentType: 'image/png', description: 'The graph', data: PNG },
          { filename: 'bars.png', size: PNG.length, contentType: 'image/png', description: 'The bars', data: PNG },
          { filename: 'splits.csv', size: 2048, contentType: 'text/csv', data: Buffer.from('a,b') },
        ],
      }),
    ]);
    const src = `data:image/png;base64,${PNG.toString('base64')}`;
    expect(html).toContain(`<img class="embed-image" src="${src}" alt="The graph">`);
    expect(html).toContain(`<img class="attachment" src="${src}" alt="The bars">`);
    expect(html.split(src)).toHaveLength(3);
    expect(textOf(html)).toContain('splits.csv2.00 KB');
  });

  it("finds an embed's picture by the address Discord gave the file, and loads nothing from elsewhere", () => {
    const url = 'http://127.0.0.1:4000/attachments/1/2/splits.png';
    const html = page([
      message({
        embeds: [{ image: { url } }, { image: { url: 'https://example.org/tracker.png' } }],
        attachments: [{ filename: 'splits.png', size: PNG.length, contentType: 'image/png', url, data: PNG }],
      }),
    ]);
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain(`<img class="embed-image" src="data:image/png;base64,${PNG.toString('base64')}"`);
    expect(html).not.toContain('example.org');
  });

  it('shows buttons and menus, and says "Only you can see this" under an ephemeral answer', () => {
    const html = page([
      message({
        ephemeral: true,
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 2, label: 'Previous', custom_id: 'p', disabled: true },
              { type: 2, style: 1, label: 'Next', custom_id: 'n' },
              { type: 2, style: 5, label: 'Eventor', url: 'https://eventor.orientering.se' },
            ],
          },
          { type: 1, components: [{ type: 3, custom_id: 's', placeholder: 'Pick an event', options: [] }] },
        ],
      }),
    ]);
    expect(html).toContain('<span class="button secondary disabled">Previous</span>');
    expect(html).toContain('<span class="button primary">Next</span>');
    expect(html).toMatch(/<span class="button link">Eventor <span class="external">/);
    expect(html).toContain('<span class="placeholder">Pick an event</span>');
    expect(textOf(html)).toContain('Only you can see this • Dismiss message');
  });
});
