import { ComponentType, isSelectType } from './constants.js';
import type { ApiComponent, ApiEmbed } from './types.js';

/** The parts of a message `renderMessageText` needs; a `MessageView` fits. */
export interface RenderableMessage {
  content?: string;
  embeds?: ApiEmbed[];
  components?: ApiComponent[];
  attachments?: { filename: string; size?: number }[];
  author?: { username: string; bot?: boolean };
  ephemeral?: boolean;
  loading?: boolean;
  editedAt?: number | null;
  deleted?: boolean;
}

export interface RenderOptions {
  /** Prefix with "<author> [BOT] (only you can see this):". Default true when the message has an author. */
  header?: boolean;
  /**
   * Show `<t:…>` markup and embed timestamps as this reader's Discord client does: in the reader's
   * language and zone. Without a reader they stay as sent, for tests that check the markup.
   */
  reader?: TimestampReader;
}

/** Who reads a message: their Discord locale (`sv-SE`, `no`, `en-GB`), time zone, and the moment. */
export interface TimestampReader {
  locale: string;
  timeZone: string;
  /** Milliseconds since the epoch, for relative times ("in 2 days"). */
  now: number;
}

/** Discord's `no` is Norwegian Bokmål; Intl knows it as `nb`. */
function intlLocale(locale: string): string {
  return locale === 'no' ? 'nb' : locale;
}

/**
 * Intl's formatters, one per style, locale and zone: making one costs far more than formatting, and
 * tests render every message they read. Few readers exist, so the map stays small.
 */
const formats = new Map<string, { format(...args: never[]): string }>();
function cachedFormat<F extends { format(...args: never[]): string }>(key: string, make: () => F): F {
  let format = formats.get(key) as F | undefined;
  if (format === undefined) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/** What Discord shows for `<t:…:R>` in the reader's language: "in 2 days", "om 2 dagar", "om 2 dager". */
function relativeTime(ms: number, locale: string): string {
  const format = cachedFormat(
    `R|${locale}`,
    () => new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'always' }),
  );
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 365 * 86_400_000],
    ['month', 30 * 86_400_000],
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
  ];
  for (const [unit, size] of units) if (Math.abs(ms) >= size) return format.format(Math.round(ms / size), unit);
  return format.format(Math.round(ms / 1000), 'second');
}

/** The styles of Discord's timestamp markup (`t` short time … `F` long date with weekday and time). */
const TIMESTAMP_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  t: { timeStyle: 'short' },
  T: { timeStyle: 'medium' },
  d: { dateStyle: 'short' },
  D: { dateStyle: 'long' },
  f: { dateStyle: 'long', timeStyle: 'short' },
  F: { dateStyle: 'full', timeStyle: 'short' },
};

/** `<t:1795627800:R>` and the other styles as the reader sees them. */
export function renderTimestamps(text: string, reader: TimestampReader): string {
  return text.replace(/<t:(-?\d+)(?::([tTdDfFR]))?>/g, (_, seconds: string, style: string | undefined) => {
    const at = Number(seconds) * 1000;
    if (style === 'R') return relativeTime(at - reader.now, reader.locale);
    const key = `${style ?? 'f'}|${reader.locale}|${reader.timeZone}`;
    return cachedFormat(
      key,
      () =>
        new Intl.DateTimeFormat(intlLocale(reader.locale), {
          timeZone: reader.timeZone,
          ...TIMESTAMP_STYLES[style ?? 'f'],
        }),
    ).format(at);
  });
}

const BUTTON_STYLE_LINK = 5;

function renderButton(c: ApiComponent): string {
  const emoji = c.emoji?.name ? `${c.emoji.name} ` : '';
  const label = `${emoji}${c.label ?? ''}`.trim() || '(no label)';
  const link = c.style === BUTTON_STYLE_LINK && c.url ? ` -> ${c.url}` : '';
  return `[${label}${link}]${c.disabled ? ' (disabled)' : ''}`;
}

function renderSelect(c: ApiComponent): string {
  const kind: Record<number, string> = {
    [ComponentType.UserSelect]: 'user',
    [ComponentType.RoleSelect]: 'role',
    [ComponentType.MentionableSelect]: 'user or role',
    [ComponentType.ChannelSelect]: 'channel',
  };
  const placeholder = c.placeholder ?? `Select ${kind[c.type] ?? 'an option'}`;
  const options = c.options?.length
    ? `: ${c.options.map((o) => (o.default ? `*${o.label}` : o.label)).join(' | ')}`
    : '';
  return `[v ${placeholder}${options}]${c.disabled ? ' (disabled)' : ''}`;
}

function renderComponents(components: ApiComponent[], indent: string, out: string[]): void {
  for (const c of components) {
    switch (c.type) {
      case ComponentType.ActionRow:
        out.push(
          indent +
            (c.components ?? [])
              .map((child) => (child.type === ComponentType.Button ? renderButton(child) : renderSelect(child)))
              .join(' '),
        );
        break;
      case ComponentType.Button:
        out.push(indent + renderButton(c));
        break;
      case ComponentType.TextDisplay:
        for (const line of String(c.content ?? '').split('\n')) out.push(indent + line);
        break;
      case ComponentType.Section:
        renderComponents(c.components ?? [], indent, out);
        if (c.accessory?.type === ComponentType.Button) out.push(indent + renderButton(c.accessory));
        break;
      case ComponentType.Container:
        renderComponents(c.components ?? [], `${indent}| `, out);
        break;
      case 14: // separator
        out.push(`${indent}---`);
        break;
      default:
        if (isSelectType(c.type)) out.push(indent + renderSelect(c));
    }
  }
}

function renderEmbed(embed: ApiEmbed, out: string[], reader: TimestampReader | undefined): void {
  const bar = '> ';
  if (embed.author?.name) out.push(`${bar}${embed.author.name}`);
  if (embed.title) out.push(`${bar}**${embed.title}**${embed.url ? ` (${embed.url})` : ''}`);
  if (embed.description) for (const line of embed.description.split('\n')) out.push(bar + line);
  for (const field of embed.fields ?? []) {
    const value = field.value.split('\n');
    out.push(`${bar}${field.name}: ${value[0] ?? ''}`);
    for (const line of value.slice(1)) out.push(`${bar}  ${line}`);
  }
  if (embed.image?.url) out.push(`${bar}[image: ${embed.image.url}]`);
  // Discord shows an embed's timestamp as a date and time in the reader's language and zone.
  const timestamp =
    embed.timestamp && reader
      ? renderTimestamps(`<t:${Math.floor(Date.parse(embed.timestamp) / 1000)}:f>`, reader)
      : embed.timestamp;
  const footer = [embed.footer?.text, timestamp].filter(Boolean).join(' - ');
  if (footer) out.push(`${bar}${footer}`);
}

/**
 * A text as Discord draws it: without zero-width characters (a post's hidden marker, a defused
 * mention), and without the space before such characters at the end of a line.
 */
export function visibleText(text: string): string {
  return text.replace(/ (?:\u200b|\u200c|\u200d|\u2060)+$/gm, '').replace(/\u200b|\u200c|\u200d|\u2060/g, '');
}

/**
 * A message as plain text, for transcripts and readable test failures: header, content, embeds
 * (as "> " quoted blocks), component rows ("[Label]" buttons, "[v placeholder: a | b]" selects) and
 * files, as a member sees it: without the characters Discord draws nothing for.
 */
export function renderMessageText(message: RenderableMessage, options: RenderOptions = {}): string {
  const out: string[] = [];
  if (message.author && options.header !== false) {
    const notes = [
      message.author.bot ? 'BOT' : null,
      message.ephemeral ? 'only you can see this' : null,
      message.editedAt ? 'edited' : null,
      message.deleted ? 'deleted' : null,
    ].filter(Boolean);
    out.push(`${message.author.username}${notes.length ? ` (${notes.join(', ')})` : ''}:`);
  }
  if (message.loading) out.push(`${message.author?.username ?? 'Bot'} is thinking...`);
  if (message.content) out.push(...message.content.split('\n'));
  (message.embeds ?? []).forEach((embed, i) => {
    if (i > 0 || out.length > 0) out.push('');
    renderEmbed(embed, out, options.reader);
  });
  if (message.components?.length) renderComponents(message.components, '', out);
  for (const file of message.attachments ?? [])
    out.push(`[file: ${file.filename}${file.size !== undefined ? `, ${file.size} bytes` : ''}]`);
  const text = visibleText(out.join('\n'));
  return options.reader ? renderTimestamps(text, options.reader) : text;
}

interface InteractionPayloadLike {
  type?: unknown;
  data?: unknown;
  member?: { user?: { username?: string; global_name?: string | null } } | unknown;
  user?: { username?: string; global_name?: string | null } | unknown;
  message?: { components?: ApiComponent[] } | unknown;
}

interface OptionLike {
  name: string;
  type: number;
  value?: unknown;
  focused?: boolean;
  options?: OptionLike[];
}

function findLabel(components: ApiComponent[] | undefined, customId: string): string | undefined {
  for (const c of components ?? []) {
    if (c.custom_id === customId) return c.label ?? c.placeholder ?? customId;
    const nested = findLabel(
      [...(c.components ?? []), ...(c.component ? [c.component] : []), ...(c.accessory ? [c.accessory] : [])],
      customId,
    );
    if (nested) return nested;
  }
  return undefined;
}

/**
 * What the user did, as one transcript line: "alice used /event find query: Lin",
 * "alice clicked [Sign up]", "alice chose D21 in [Class]", "alice submitted modal feedback".
 * Takes an INTERACTION_CREATE payload (`handle.payload`).
 */
export function renderInteractionText(payload: Record<string, unknown>): string {
  const p = payload as InteractionPayloadLike;
  const who =
    ((p.member as { user?: { username?: string } } | undefined)?.user ?? (p.user as { username?: string } | undefined))
      ?.username ?? 'someone';
  const data = (p.data ?? {}) as {
    name?: string;
    options?: OptionLike[];
    custom_id?: string;
    values?: string[];
    components?: ApiComponent[];
  };
  switch (p.type) {
    case 2:
    case 4: {
      const words = [`/${data.name}`];
      let focused: OptionLike | undefined;
      const walk = (options: OptionLike[] | undefined): void => {
        for (const o of options ?? []) {
          if (o.type === 1 || o.type === 2) {
            words.push(o.name);
            walk(o.options);
          } else if (o.focused) focused = o;
          else words.push(`${o.name}: ${String(o.value)}`);
        }
      };
      walk(data.options);
      if (p.type === 4)
        return `${who} is typing "${String(focused?.value ?? '')}" in ${words.join(' ')} ${focused?.name ?? ''}`.trimEnd();
      return `${who} used ${words.join(' ')}`;
    }
    case 3: {
      const label =
        findLabel((p.message as { components?: ApiComponent[] } | undefined)?.components, data.custom_id ?? '') ??
        data.custom_id;
      return data.values ? `${who} chose ${data.values.join(', ')} in [${label}]` : `${who} clicked [${label}]`;
    }
    case 5: {
      const fields = (data.components ?? [])
        .flatMap((c) => c.components ?? (c.component ? [c.component] : []))
        .map((input) => `${input.custom_id}: ${String(input.value ?? '')}`);
      return `${who} submitted modal ${data.custom_id}${fields.length ? ` (${fields.join('; ')})` : ''}`;
    }
    default:
      return `${who} sent interaction type ${String(p.type)}`;
  }
}
