/**
 * Messages laid out in HTML the way Discord's dark theme shows them, for `npm run docs:screens`
 * (docs/members.md): the "used /command" line, author and APP tag, content,
 * embeds with their colour bar, title, description, fields in rows of three, image and footer,
 * image attachments under the message, buttons and menus, and "Only you can see this" under an
 * ephemeral answer. Pure: messages in, one HTML page out.
 *
 * Every piece of text is escaped before it becomes HTML: names come from Eventor and may hold
 * anything, `<script>` included. Markdown becomes tags only through the few patterns below, and
 * what they wrap is escaped again; links are shown, never followed, and only pictures carried in
 * the messages themselves (data: URLs) are loaded.
 */
import { renderTimestamps, type TimestampReader } from '../sandbox/discord/index.js';
import type { ApiComponent, ApiEmbed } from '../sandbox/discord/types.js';

/** A file attached to a message, with its bytes (`MessageView.attachments` fits). */
export interface ScreenAttachment {
  filename: string;
  size: number;
  contentType?: string | undefined;
  /** Alt text. */
  description?: string | undefined;
  /** Where Discord keeps it: an embed that showed `attachment://name` names this address once sent. */
  url?: string | undefined;
  data: Buffer;
}

/** One message as a member sees it. */
export interface ScreenMessage {
  author: { name: string; bot: boolean };
  /** The slash command the message answers, shown above it: "astrid used /events". */
  invokedBy?: { user: string; command: string };
  /** The time shown beside the author ("Today at 18:20"). */
  time: string;
  content: string;
  embeds: ApiEmbed[];
  components: ApiComponent[];
  attachments: ScreenAttachment[];
  ephemeral: boolean;
}

export interface Screen {
  /** The page's title (not shown in the picture). */
  title: string;
  /** The channel or thread the messages are in, shown as a header line. */
  channel: string;
  messages: ScreenMessage[];
  /** Discord shows `<t:…>` in the reader's language and zone. */
  reader: TimestampReader;
  /** Names for `<@id>` and `<#id>` mentions. */
  names?: ReadonlyMap<string, string>;
  /** Fonts to use (file:// addresses of TrueType files); the browser's own otherwise. */
  fonts?: { sans: string; sansBold: string; mono: string };
  /** The width of the picture in CSS pixels. */
  width?: number;
}

/** The element `docs:screens` captures. */
export const SCREEN_SELECTOR = '#screen';
export const SCREEN_WIDTH = 760;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows exactly that text (in element content and in quoted attributes alike). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Picture types a browser shows inline; any other file is shown as a file box. */
const PICTURE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function pictureType(file: ScreenAttachment): string | null {
  const type = file.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type && PICTURE_TYPES.has(type)) return type;
  const byName: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif' };
  return type === undefined ? (byName[file.filename.split('.').pop()?.toLowerCase() ?? ''] ?? null) : null;
}

function dataUrl(file: ScreenAttachment, type: string): string {
  return `data:${type};base64,${file.data.toString('base64')}`;
}

/**
 * Discord's inline markdown: escapes, code, bold, underline, italics, strikethrough, spoilers,
 * masked and bare links, mentions and custom emoji. One pass over the raw text; what lies
 * between matches is escaped, what a match wraps is formatted recursively (code is escaped only).
 */
const INLINE = new RegExp(
  [
    /\\([^A-Za-z0-9\s])/.source, // 1: an escaped character
    /(`+)([^`]|[^`][\s\S]*?[^`])\2(?!`)/.source, // 2, 3: inline code
    /\*\*([\s\S]+?)\*\*(?!\*)/.source, // 4: bold
    /__([\s\S]+?)__(?!_)/.source, // 5: underline
    /\*(?![*\s])([\s\S]*?[^*\s\\])\*(?!\*)/.source, // 6: italic
    /(?<![A-Za-z0-9_])_(?![_\s])([\s\S]*?[^_\s\\])_(?![A-Za-z0-9_])/.source, // 7: italic
    /~~([\s\S]+?)~~/.source, // 8: strikethrough
    /\|\|([\s\S]+?)\|\|/.source, // 9: spoiler
    /\[([^\]\n]+)\]\((<?https?:\/\/[^\s)>]+>?)\)/.source, // 10, 11: masked link
    /(https?:\/\/[^\s<]*[^\s<.,:;"')\]])/.source, // 12: bare link
    /<(@[!&]?|#)(\d+)>/.source, // 13, 14: mention
    /<a?:(\w+):\d+>/.source, // 15: custom emoji
  ].join('|'),
  'g',
);

export function inlineHtml(text: string, names: ReadonlyMap<string, string> = new Map()): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += escapeHtml(text.slice(last, m.index));
    last = m.index + m[0].length;
    const inner = (s: string): string => inlineHtml(s, names);
    if (m[1] !== undefined) out += escapeHtml(m[1]);
    else if (m[3] !== undefined) out += `<code>${escapeHtml(m[3])}</code>`;
    else if (m[4] !== undefined) out += `<strong>${inner(m[4])}</strong>`;
    else if (m[5] !== undefined) out += `<u>${inner(m[5])}</u>`;
    else if (m[6] !== undefined) out += `<em>${inner(m[6])}</em>`;
    else if (m[7] !== undefined) out += `<em>${inner(m[7])}</em>`;
    else if (m[8] !== undefined) out += `<s>${inner(m[8])}</s>`;
    else if (m[9] !== undefined) out += `<span class="spoiler">${inner(m[9])}</span>`;
    else if (m[10] !== undefined) out += `<span class="link">${inner(m[10])}</span>`;
    else if (m[12] !== undefined) out += `<span class="link">${escapeHtml(m[12])}</span>`;
    else if (m[13] !== undefined) {
      const name = names.get(m[14]!);
      const shown = m[13] === '#' ? `#${name ?? 'unknown'}` : `@${name ?? 'unknown-user'}`;
      out += `<span class="mention">${escapeHtml(shown)}</span>`;
    } else out += escapeHtml(`:${m[15]}:`);
  }
  return out + escapeHtml(text.slice(last));
}

/**
 * Discord's markdown for a block of text: code blocks, then per line headings (`#`, `##`, `###`),
 * subtext (`-#`), block quotes (`>`, `>>>`) and bulleted lists, and inline markdown in each.
 */
export function markdownHtml(text: string, names: ReadonlyMap<string, string> = new Map()): string {
  let out = '';
  let last = 0;
  // The newline right before and after a code block is part of the block in Discord.
  for (const m of text.matchAll(/\n?```(?:([A-Za-z0-9_+-]+)?\n)?([\s\S]*?)\n?```\n?/g)) {
    out += linesHtml(text.slice(last, m.index), names);
    out += `<pre><code>${escapeHtml(m[2]!)}</code></pre>`;
    last = m.index + m[0].length;
  }
  return out + linesHtml(text.slice(last), names);
}

function linesHtml(text: string, names: ReadonlyMap<string, string>): string {
  if (text === '') return '';
  const lines = text.split('\n');
  const out: string[] = [];
  let list: string[] = [];
  const endList = (): void => {
    if (list.length > 0) out.push(`<ul>${list.map((item) => `<li>${item}</li>`).join('')}</ul>`);
    list = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const bullet = /^\s*[-*] (.*)$/.exec(line);
    if (bullet) {
      list.push(inlineHtml(bullet[1]!, names));
      continue;
    }
    endList();
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const subtext = /^-# (.*)$/.exec(line);
    if (line.startsWith('>>> ')) {
      out.push(`<blockquote>${linesHtml(lines.slice(i).join('\n').slice(4), names)}</blockquote>`);
      break;
    } else if (/^> ?/.test(line) && line.startsWith('>')) {
      out.push(`<blockquote>${inlineHtml(line.replace(/^> ?/, ''), names) || '&nbsp;'}</blockquote>`);
    } else if (heading) out.push(`<h${heading[1]!.length}>${inlineHtml(heading[2]!, names)}</h${heading[1]!.length}>`);
    else if (subtext) out.push(`<div class="subtext">${inlineHtml(subtext[1]!, names)}</div>`);
    else out.push(`<div class="line">${inlineHtml(line, names) || '&nbsp;'}</div>`);
  }
  endList();
  return out.join('');
}

function colourOf(colour: number | undefined): string {
  return colour === undefined ? '#1e1f22' : `#${colour.toString(16).padStart(6, '0')}`;
}

/**
 * The attached file an embed's picture shows: `attachment://name` as the bot sends it, or the
 * file's own address as Discord gives it back. Any other address is not loaded (nothing is fetched).
 */
function fileOf(url: string | undefined, files: readonly ScreenAttachment[]): ScreenAttachment | undefined {
  if (!url) return undefined;
  const name = url.startsWith('attachment://') ? url.slice('attachment://'.length) : null;
  return files.find((f) => (name !== null ? f.filename === name : f.url !== undefined && f.url === url));
}

function embedHtml(embed: ApiEmbed, files: readonly ScreenAttachment[], screen: Screen): string {
  const names = screen.names ?? new Map();
  const md = (text: string): string => markdownHtml(renderTimestamps(text, screen.reader), names);
  const parts: string[] = [];
  if (embed.author?.name) parts.push(`<div class="embed-author">${escapeHtml(embed.author.name)}</div>`);
  if (embed.title) {
    const title = inlineHtml(embed.title, names);
    parts.push(`<div class="embed-title${embed.url ? ' link' : ''}">${title}</div>`);
  }
  if (embed.description) parts.push(`<div class="embed-description">${md(embed.description)}</div>`);
  const fields = embed.fields ?? [];
  if (fields.length > 0) {
    // Discord puts up to three inline fields in a row; a field that is not inline takes a row of its own.
    const rows: Array<typeof fields> = [];
    for (const field of fields) {
      const row = rows.at(-1);
      if (field.inline && row && row.length < 3 && row.every((f) => f.inline)) row.push(field);
      else rows.push([field]);
    }
    const cells: string[] = [];
    for (const row of rows) {
      const span = 12 / row.length;
      row.forEach((field, i) =>
        cells.push(
          `<div class="embed-field" style="grid-column: ${1 + i * span} / span ${span}">` +
            `<div class="embed-field-name">${inlineHtml(field.name, names)}</div>` +
            `<div class="embed-field-value">${md(field.value)}</div></div>`,
        ),
      );
    }
    parts.push(`<div class="embed-fields">${cells.join('')}</div>`);
  }
  const image = fileOf(embed.image?.url, files);
  if (image) {
    const type = pictureType(image);
    if (type)
      parts.push(
        `<img class="embed-image" src="${dataUrl(image, type)}" alt="${escapeHtml(image.description ?? '')}">`,
      );
  }
  const timestamp = embed.timestamp
    ? renderTimestamps(`<t:${Math.floor(Date.parse(embed.timestamp) / 1000)}:f>`, screen.reader)
    : undefined;
  const footer = [embed.footer?.text, timestamp].filter((t): t is string => Boolean(t));
  if (footer.length > 0)
    parts.push(
      `<div class="embed-footer">${footer.map((t) => escapeHtml(renderTimestamps(t, screen.reader))).join(' • ')}</div>`,
    );
  let thumbnail = '';
  const thumb = fileOf(embed.thumbnail?.url, files);
  const thumbType = thumb ? pictureType(thumb) : null;
  if (thumb && thumbType) thumbnail = `<img class="embed-thumbnail" src="${dataUrl(thumb, thumbType)}" alt="">`;
  return (
    `<div class="embed" style="border-left-color: ${colourOf(embed.color)}">` +
    `<div class="embed-body">${parts.join('')}</div>${thumbnail}</div>`
  );
}

const BUTTON_STYLES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'link' };
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

function componentHtml(c: ApiComponent): string {
  if (c.type === 2) {
    const emoji = c.emoji?.name && !c.emoji.id ? `${escapeHtml(c.emoji.name)} ` : '';
    const external = c.style === 5 ? ' <span class="external">↗</span>' : '';
    return (
      `<span class="button ${BUTTON_STYLES[c.style ?? 2] ?? 'secondary'}${c.disabled ? ' disabled' : ''}">` +
      `${emoji}${escapeHtml(c.label ?? '')}${external}</span>`
    );
  }
  if (SELECT_TYPES.has(c.type)) {
    const chosen = (c.options ?? []).filter((o) => o.default).map((o) => o.label);
    const text = chosen.length > 0 ? chosen.join(', ') : (c.placeholder ?? 'Make a selection');
    return (
      `<span class="select${c.disabled ? ' disabled' : ''}"><span class="${chosen.length > 0 ? '' : 'placeholder'}">` +
      `${escapeHtml(text)}</span><span class="chevron">⌄</span></span>`
    );
  }
  return '';
}

function initial(name: string): string {
  return escapeHtml([...name.trim()][0]?.toUpperCase() ?? '?');
}

function messageHtml(message: ScreenMessage, screen: Screen): string {
  const names = screen.names ?? new Map();
  const files = message.attachments;
  const shownInEmbeds = new Set(
    message.embeds.flatMap((e) => [fileOf(e.image?.url, files), fileOf(e.thumbnail?.url, files)]),
  );
  const parts: string[] = [];
  if (message.invokedBy) {
    parts.push(
      `<div class="invoked"><span class="spine"></span><span class="mini-avatar">${initial(message.invokedBy.user)}</span>` +
        `<span class="invoker">${escapeHtml(message.invokedBy.user)}</span> used ` +
        `<span class="command">${escapeHtml(message.invokedBy.command)}</span></div>`,
    );
  }
  const body: string[] = [];
  body.push(
    `<div class="header"><span class="author">${escapeHtml(message.author.name)}</span>` +
      `${message.author.bot ? '<span class="app-tag">APP</span>' : ''}` +
      `<span class="time">${escapeHtml(message.time)}</span></div>`,
  );
  if (message.content)
    body.push(`<div class="content">${markdownHtml(renderTimestamps(message.content, screen.reader), names)}</div>`);
  for (const embed of message.embeds) body.push(embedHtml(embed, files, screen));
  const loose = message.attachments.filter((f) => !shownInEmbeds.has(f));
  for (const file of loose) {
    const type = pictureType(file);
    body.push(
      type
        ? `<img class="attachment" src="${dataUrl(file, type)}" alt="${escapeHtml(file.description ?? '')}">`
        : `<div class="file"><span class="file-name">${escapeHtml(file.filename)}</span>` +
            `<span class="file-size">${escapeHtml(formatSize(file.size))}</span></div>`,
    );
  }
  for (const row of message.components) {
    const inner = (row.type === 1 ? (row.components ?? []) : [row]).map(componentHtml).join('');
    if (inner) body.push(`<div class="row">${inner}</div>`);
  }
  if (message.ephemeral)
    body.push(
      '<div class="ephemeral"><span class="eye">👁</span> Only you can see this • <span class="dismiss">Dismiss message</span></div>',
    );
  parts.push(
    `<div class="message-main"><div class="avatar${message.author.bot ? ' bot' : ''}">${initial(message.author.name)}</div>` +
      `<div class="message-body">${body.join('')}</div></div>`,
  );
  return `<div class="message${message.ephemeral ? ' ephemeral-message' : ''}">${parts.join('')}</div>`;
}

function formatSize(bytes: number): string {
  return bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(2)} KB`
      : `${(bytes / 1048576).toFixed(2)} MB`;
}

function fontFaces(fonts: Screen['fonts']): string {
  if (!fonts) return '';
  const face = (family: string, url: string, weight: number): string =>
    `@font-face { font-family: '${family}'; src: url("${url.replace(/["<>\\\s]/g, encodeURIComponent)}") format('truetype'); font-weight: ${weight}; }`;
  return [
    face('Screen Sans', fonts.sans, 400),
    face('Screen Sans', fonts.sansBold, 700),
    face('Screen Mono', fonts.mono, 400),
  ].join('\n');
}

/** Discord's dark theme, as far as these messages need it. */
const STYLE = `
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #313338; }
body { font-family: 'Screen Sans', 'gg sans', 'Noto Sans', 'DejaVu Sans', sans-serif, 'Noto Color Emoji';
  font-size: 15px; line-height: 1.375; color: #dbdee1; -webkit-font-smoothing: antialiased; }
#screen { background: #313338; padding: 0 0 16px; }
.channel { height: 48px; display: flex; align-items: center; padding: 0 16px; font-weight: 700; color: #f2f3f5;
  border-bottom: 1px solid #26272b; margin-bottom: 8px; }
.channel .hash { color: #80848e; font-size: 22px; margin-right: 8px; font-weight: 400; }
.message { padding: 2px 48px 2px 16px; margin-top: 17px; }
.ephemeral-message { background: rgba(88, 101, 242, 0.05); }
.invoked { position: relative; display: flex; align-items: center; gap: 4px; margin-left: 56px; font-size: 13px;
  color: #b5bac1; height: 22px; }
.invoked .spine { position: absolute; left: -36px; top: 10px; width: 33px; height: 10px; border-left: 2px solid #4e5058;
  border-top: 2px solid #4e5058; border-top-left-radius: 6px; }
.invoked .invoker { color: #f2f3f5; font-weight: 600; }
.invoked .command { color: #00a8fc; }
.mini-avatar { width: 16px; height: 16px; border-radius: 50%; background: #3ba55c; color: #fff; font-size: 10px;
  display: inline-flex; align-items: center; justify-content: center; font-weight: 700; }
.message-main { display: flex; gap: 16px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #3ba55c; color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: 700; font-size: 18px; margin-top: 2px; }
.avatar.bot { background: #5865f2; }
.message-body { min-width: 0; flex: 1; }
.header { display: flex; align-items: baseline; gap: 4px; }
.author { color: #f2f3f5; font-weight: 600; font-size: 16px; }
.app-tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 3px; padding: 1px 4px;
  position: relative; top: -1px; margin-left: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 4px; }
.content { white-space: pre-wrap; word-wrap: break-word; }
.line, .embed-description .line, .embed-field-value .line { white-space: pre-wrap; min-height: 1.375em; }
h1, h2, h3 { margin: 8px 0 0; color: #f2f3f5; line-height: 1.25; }
h1 { font-size: 24px; } h2 { font-size: 20px; } h3 { font-size: 16px; }
.subtext { font-size: 13px; color: #949ba4; }
ul { margin: 4px 0 0 16px; padding: 0; }
blockquote { margin: 0; padding: 0 8px 0 12px; border-left: 4px solid #4e5058; }
strong { font-weight: 700; }
code { font-family: 'Screen Mono', 'DejaVu Sans Mono', monospace; font-size: 0.85em; background: #2b2d31;
  border-radius: 3px; padding: 0.1em 0.2em; }
pre { margin: 6px 0 0; max-width: 100%; }
pre code { display: block; white-space: pre; padding: 0.5em; background: #2b2d31; border: 1px solid #1e1f22;
  border-radius: 4px; font-size: 13px; line-height: 1.125rem; color: #dbdee1; overflow: hidden; }
.embed pre code { background: #1e1f22; }
.link { color: #00a8fc; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; font-weight: 500; }
.spoiler { background: #1e1f22; color: #1e1f22; border-radius: 3px; }
.embed { display: flex; max-width: 520px; margin-top: 4px; background: #2b2d31; border-left: 4px solid;
  border-radius: 4px; padding: 8px 16px 16px 12px; gap: 16px; }
.embed-body { min-width: 0; flex: 1; }
.embed-author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.embed-title { font-size: 16px; font-weight: 700; color: #f2f3f5; margin-top: 8px; }
.embed-title.link { color: #00a8fc; }
.embed-description { font-size: 14px; margin-top: 8px; }
.embed-fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px; margin-top: 8px; }
.embed-field { min-width: 0; font-size: 14px; }
.embed-field-name { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; }
.embed-image { display: block; max-width: 100%; margin-top: 16px; border-radius: 4px; }
.embed-thumbnail { width: 80px; height: 80px; object-fit: contain; border-radius: 4px; margin-top: 8px; }
.embed-footer { font-size: 12px; color: #dbdee1; margin-top: 8px; }
.attachment { display: block; max-width: 550px; max-height: 420px; margin-top: 8px; border-radius: 8px; }
.file { display: flex; flex-direction: column; width: 400px; margin-top: 8px; padding: 10px; background: #2b2d31;
  border: 1px solid #1e1f22; border-radius: 8px; }
.file-name { color: #00a8fc; } .file-size { color: #949ba4; font-size: 12px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { display: inline-flex; align-items: center; height: 32px; padding: 2px 16px; border-radius: 8px; color: #fff;
  font-size: 14px; font-weight: 500; }
.button.primary { background: #5865f2; } .button.secondary, .button.link { background: #4e5058; }
.button.success { background: #248046; } .button.danger { background: #da373c; }
.button.disabled { opacity: 0.5; }
.external { margin-left: 6px; font-size: 12px; }
.select { display: flex; justify-content: space-between; align-items: center; width: 400px; height: 40px;
  padding: 0 12px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; font-size: 15px; }
.select .placeholder { color: #949ba4; } .select.disabled { opacity: 0.5; }
.chevron { color: #b5bac1; font-size: 18px; line-height: 1; position: relative; top: -4px; }
.ephemeral { font-size: 12px; color: #949ba4; margin-top: 4px; }
.ephemeral .dismiss { color: #00a8fc; }
`;

/** The whole page for one screen. */
export function screenHtml(screen: Screen): string {
  const width = screen.width ?? SCREEN_WIDTH;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing on the page runs or is fetched: no scripts, and only data: pictures and local fonts.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src file:; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(screen.title)}</title>`,
    `<style>${fontFaces(screen.fonts)}\n${STYLE}\n#screen { width: ${width}px; }</style>`,
    '</head><body>',
    `<div id="screen"><div class="channel"><span class="hash">#</span>${escapeHtml(screen.channel)}</div>`,
    ...screen.messages.map((m) => messageHtml(m, screen)),
    '</div></body></html>',
  ].join('\n');
}
