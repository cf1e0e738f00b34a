import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';
import type { Language } from '../i18n/index.js';

/**
 * What every renderer returns: the body of a message or interaction reply, ready for
 * `interaction.reply({ ...payload, flags })` or `channel.send(payload)`. Mentions are always off.
 * (`APIComponentInMessageActionRow` is discord-api-types' v10 name of `APIMessageActionRowComponent`.)
 */
export interface MessagePayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  /** Mentions never ping, except roles a feed names on purpose (`roles`). */
  allowedMentions: { parse: []; roles?: string[] };
  /**
   * Pictures sent with the message as attachments, at most 10 (docs/discord.md#attachments); whoever
   * sends the payload turns them into files. An embed shows one with `image: { url: 'attachment://<name>' }`.
   */
  pictures?: PayloadFile[];
}

/** A file sent with a message: its name (unique in the message), bytes and alt text. */
export interface PayloadFile {
  name: string;
  data: Uint8Array;
  /** Alt text: what the picture shows, in words (Discord's attachment description, at most 1024 characters). */
  description: string;
}

export interface RenderContext {
  language: Language;
  /** IANA zone of the server, for texts Discord cannot localise (select options, code blocks, clocks). */
  timeZone: string;
  /** The caller's clock: renderers never read the time themselves. */
  now: Date;
  /** Eventor's public web front end without a trailing slash (`EventorInstance.webUrl`). */
  webUrl: string;
  /** Organisation id -> name; `/events` gives organiser ids only. */
  organisationNames?: ReadonlyMap<string, string>;
}

/** Options of the renderers that split long output into pages. */
export interface PageOptions {
  /** At most this many pages; what does not fit is counted in an "and N more" line. Default 10. */
  maxPages?: number;
}
