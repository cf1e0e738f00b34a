/**
 * Long lists: sections of blocks packed into embed descriptions, one embed per message page,
 * with "page x of y" footers and an "and N more" line when even the last page cannot hold the rest.
 */
import type { APIEmbed } from 'discord.js';
import { t } from '../i18n/index.js';
import { fitPayload, truncateMarkdown } from './fit.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';

/** A heading (already formatted, e.g. bold) and its blocks; a block is one item and never split. */
export interface Section {
  heading: string | null;
  blocks: string[];
}

// Room under the 4096 description limit and the 6000 total for title and footer.
const PAGE_BUDGET = 3900;
const MORE_RESERVE = 120;
export const DEFAULT_MAX_PAGES = 10;

/**
 * Descriptions of the pages. A section continuing on the next page repeats its heading; blocks
 * beyond `maxPages` are counted in `more(n)` at the end of the last page.
 */
export function packSections(
  sections: readonly Section[],
  maxPages: number,
  more: (n: number) => string,
  intro = '',
): string[] {
  const limit = Math.max(1, Math.floor(maxPages));
  const budget = PAGE_BUDGET - MORE_RESERVE;
  const pages: string[] = [];
  let current = intro;
  let total = 0;
  for (const section of sections) total += section.blocks.length;
  let placed = 0;

  outer: for (const section of sections) {
    let headingOnPage = false;
    for (const raw of section.blocks) {
      const block = truncateMarkdown(raw, Math.floor(budget / 2));
      const heading = section.heading === null || headingOnPage ? '' : `${section.heading}\n`;
      const separator = current === '' ? '' : headingOnPage ? '\n' : '\n\n';
      if (current.length + separator.length + heading.length + block.length > budget && current !== '') {
        if (pages.length + 1 >= limit) break outer;
        pages.push(current);
        const again = section.heading === null ? '' : `${section.heading}\n`;
        current = again + block;
        headingOnPage = true;
      } else {
        current += separator + heading + block;
        headingOnPage = true;
      }
      placed += 1;
    }
  }
  const rest = total - placed;
  if (rest > 0) current += `\n\n${more(rest)}`;
  pages.push(current);
  return pages;
}

/** Page payloads from packed descriptions; the footer names the page when there are several. */
export function pagePayloads(
  descriptions: readonly string[],
  ctx: RenderContext,
  embed: Omit<APIEmbed, 'description'>,
  footer?: string,
): MessagePayload[] {
  return descriptions.map((description, i) => {
    const pageText =
      descriptions.length > 1 ? t(ctx.language, 'render.page', { page: i + 1, pages: descriptions.length }) : '';
    const footerText = [footer ?? '', pageText].filter((part) => part !== '').join(' · ');
    return fitPayload({
      embeds: [
        {
          ...embed,
          ...(description === '' ? {} : { description }),
          ...(footerText === '' ? {} : { footer: { text: footerText } }),
        },
      ],
    });
  });
}

export function sectionsToPages(
  sections: readonly Section[],
  ctx: RenderContext,
  embed: Omit<APIEmbed, 'description'>,
  options: PageOptions & { intro?: string; empty?: string; footer?: string } = {},
): MessagePayload[] {
  const hasBlocks = sections.some((section) => section.blocks.length > 0);
  const descriptions = hasBlocks
    ? packSections(
        sections.filter((section) => section.blocks.length > 0),
        options.maxPages ?? DEFAULT_MAX_PAGES,
        (n) => t(ctx.language, 'render.andMore', { count: n }),
        options.intro ?? '',
      )
    : [[options.intro ?? '', options.empty ?? ''].filter((part) => part !== '').join('\n\n')];
  return pagePayloads(descriptions, ctx, embed, options.footer);
}

export const COLOURS = {
  brand: 0xf27a1a,
  cancelled: 0xd83c3e,
  results: 0x2e8b57,
  starts: 0x3b82f6,
  activity: 0x8b5cf6,
} as const;
