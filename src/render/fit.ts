/**
 * Discord's hard limits (docs/discord.md#hard-limits) and the one guard every renderer's output
 * passes through. Renderers pack their text to fit on their own; `fitPayload` is the safety net
 * that makes "within the limits" true for any input, however odd.
 */
import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';
import { ComponentType } from 'discord.js';
import { truncate } from './format.js';
import type { MessagePayload } from './types.js';

export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
  selectOptions: 25,
  selectOptionText: 100,
  selectPlaceholder: 150,
  linkUrl: 512,
  /** An attachment's description: its alt text. */
  altText: 1024,
} as const;

/** Cut markdown text, closing a code block the cut left open so the rest of the message renders. */
export function truncateMarkdown(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = truncate(text, max);
  if ((cut.match(/```/g) ?? []).length % 2 === 1) cut = `${truncate(text, max - 4)}\n\`\`\``;
  return cut;
}

/** Title, description, field names and values, footer and author: what Discord counts towards 6000. */
export function embedLength(embed: APIEmbed): number {
  let total = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  return total + (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
}

function fitEmbed(embed: APIEmbed): APIEmbed {
  const out: APIEmbed = { ...embed };
  if (out.title !== undefined) out.title = truncate(out.title, DISCORD_LIMITS.embedTitle);
  if (out.description !== undefined)
    out.description = truncateMarkdown(out.description, DISCORD_LIMITS.embedDescription);
  if (out.fields) {
    out.fields = out.fields.slice(0, DISCORD_LIMITS.embedFields).map((field) => ({
      ...field,
      // Discord refuses empty names and values.
      name: truncate(field.name.trim() === '' ? '\u200b' : field.name, DISCORD_LIMITS.fieldName),
      value: truncateMarkdown(field.value.trim() === '' ? '\u200b' : field.value, DISCORD_LIMITS.fieldValue),
    }));
  }
  if (out.footer) out.footer = { ...out.footer, text: truncate(out.footer.text, DISCORD_LIMITS.footer) };
  if (out.author) out.author = { ...out.author, name: truncate(out.author.name, DISCORD_LIMITS.author) };
  if (out.url !== undefined && out.url.length > DISCORD_LIMITS.linkUrl) delete out.url;
  return out;
}

/** Shrinks the last embeds until all of them together are within 6000 characters. */
function fitTotal(embeds: APIEmbed[]): APIEmbed[] {
  const list = embeds.map((embed) => ({ ...embed, fields: embed.fields ? [...embed.fields] : undefined }));
  let excess = list.reduce((sum, embed) => sum + embedLength(embed), 0) - DISCORD_LIMITS.embedTotal;
  for (let i = list.length - 1; i >= 0 && excess > 0; i -= 1) {
    const embed = list[i]!;
    while (excess > 0 && embed.fields && embed.fields.length > 0) {
      const field = embed.fields.pop()!;
      excess -= field.name.length + field.value.length;
    }
    if (excess > 0 && embed.description) {
      const keep = Math.max(0, embed.description.length - excess - 1);
      const before = embed.description.length;
      embed.description = keep > 20 ? truncateMarkdown(embed.description, keep) : undefined;
      excess -= before - (embed.description?.length ?? 0);
    }
    if (excess > 0 && i > 0) {
      excess -= embedLength(embed);
      list.splice(i, 1);
    }
  }
  if (excess > 0 && list[0]) {
    // Only the first embed's title, footer and author remain; shorten them.
    const first = list[0];
    if (first.footer)
      first.footer = {
        ...first.footer,
        text: truncate(first.footer.text, Math.max(1, first.footer.text.length - excess)),
      };
  }
  return list.map((embed) => {
    if (embed.fields === undefined) delete embed.fields;
    if (embed.description === undefined) delete embed.description;
    return embed;
  });
}

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

function fitRow(row: Row, seen: Set<string>): Row | null {
  const kept: APIComponentInMessageActionRow[] = [];
  for (const component of row.components) {
    if ('custom_id' in component) {
      // A custom id cannot be shortened without breaking its handler, so an oversized or repeated one drops the component.
      if (
        component.custom_id.length === 0 ||
        component.custom_id.length > DISCORD_LIMITS.customId ||
        seen.has(component.custom_id)
      )
        continue;
      seen.add(component.custom_id);
    }
    if (component.type === ComponentType.Button) {
      if ('url' in component && component.url.length > DISCORD_LIMITS.linkUrl) continue;
      kept.push(
        !('label' in component) || component.label === undefined
          ? component
          : { ...component, label: truncate(component.label, DISCORD_LIMITS.buttonLabel) },
      );
    } else if (component.type === ComponentType.StringSelect) {
      // Discord refuses two options with the same value (an event listed twice, say).
      const values = new Set<string>();
      const unique = component.options.filter(
        (option) => !values.has(option.value) && values.add(option.value) !== undefined,
      );
      const options = unique.slice(0, DISCORD_LIMITS.selectOptions).map((option) => ({
        ...option,
        label: truncate(option.label, DISCORD_LIMITS.selectOptionText) || '?',
        value: option.value.slice(0, DISCORD_LIMITS.selectOptionText),
        ...(option.description === undefined
          ? {}
          : { description: truncate(option.description, DISCORD_LIMITS.selectOptionText) }),
      }));
      if (options.length === 0) continue;
      kept.push({
        ...component,
        options,
        ...(component.placeholder === undefined
          ? {}
          : { placeholder: truncate(component.placeholder, DISCORD_LIMITS.selectPlaceholder) }),
      });
    } else {
      kept.push(component);
    }
  }
  const select = kept.find((component) => component.type !== ComponentType.Button);
  const components = select ? [select] : kept.slice(0, DISCORD_LIMITS.buttonsPerRow);
  return components.length === 0 ? null : { ...row, components };
}

/**
 * The guard: the payload cut to Discord's limits (texts truncated with an ellipsis and closed
 * code blocks, surplus embeds, fields, rows, buttons and options dropped) and mentions off.
 */
export function fitPayload(
  payload: Omit<MessagePayload, 'allowedMentions'> & { allowedMentions?: unknown },
): MessagePayload {
  const out: MessagePayload = { allowedMentions: { parse: [] } };
  if (payload.content !== undefined && payload.content !== '')
    out.content = truncateMarkdown(payload.content, DISCORD_LIMITS.content);
  if (payload.embeds && payload.embeds.length > 0) {
    out.embeds = fitTotal(payload.embeds.slice(0, DISCORD_LIMITS.embeds).map(fitEmbed));
  }
  if (payload.components && payload.components.length > 0) {
    const seen = new Set<string>();
    const rows = payload.components.map((row) => fitRow(row, seen)).filter((row): row is Row => row !== null);
    if (rows.length > 0) out.components = rows.slice(0, DISCORD_LIMITS.actionRows);
  }
  return out;
}
