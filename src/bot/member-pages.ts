/**
 * What /starts and /results share around their own lists: the `member` and `event` options, a
 * person's lists with the name to call them by, and a paged answer whose buttons show another page.
 */
import type { SlashCommandOptionsOnlyBuilder } from 'discord.js';
import type { GuildEventor } from '../club/eventor-access.js';
import type { PlainKey } from '../i18n/index.js';
import type { MessagePayload } from '../render/index.js';
import { pageWithButtons } from '../render/paging.js';
import {
  type Answer,
  type BaseContext,
  type BotCommand,
  type CommandContext,
  type ComponentHandler,
  onComponent,
} from './command.js';
import type { CustomIdCodec } from './custom-ids.js';
import { localize, localizedCommand } from './define.js';
import { nameInLists } from './members.js';
import { type MemberTarget, memberOrEventChoices, memberTarget, personalVisibility } from './options.js';
import { showPage } from './render-context.js';

/** A paged answer: its pages for a query, and the custom id of the button that shows page `page` of it. */
export interface PagedQuery<Query> {
  pages(ctx: BaseContext, eventor: GuildEventor, query: Query): Promise<MessagePayload[]>;
  pageId(query: Query, page: number): string;
}

/** Shows page `page` of the query's answer in the deferred reply (or the message whose button was clicked). */
async function showQueryPage<Query>(
  ctx: BaseContext & { answer: Answer },
  eventor: GuildEventor,
  paged: PagedQuery<Query>,
  query: Query,
  page: number,
): Promise<void> {
  const pages = await paged.pages(ctx, eventor, query);
  await showPage(
    ctx.answer,
    pageWithButtons(pages, page, ctx.language, (n) => paged.pageId(query, n)),
  );
}

/** The Previous/Next buttons: the query their custom id carries, asked again and shown at the page they name. */
function queryPageButtons<Value extends { page: number }, Query>(
  customId: CustomIdCodec<Value>,
  queryOf: (id: Value) => Query,
  paged: PagedQuery<Query>,
): ComponentHandler<Value> {
  return onComponent(customId, {
    defer: 'update',
    async handle(ctx, id) {
      const query = queryOf(id);
      await showQueryPage(ctx, await ctx.guild.eventor(), paged, query, id.page);
    },
  });
}

/**
 * A command answering with a member's lists or the club's at an event (/starts, /results): its
 * `member` and `event` options, its own ones, `share`; private or public by `personalVisibility`;
 * page 1 of its paged answer, and the page buttons.
 */
export function memberPagesCommand<Value extends { page: number }, Query>(command: {
  nameKey: PlainKey;
  descriptionKey: PlainKey;
  /** What the event option lists. */
  eventDescriptionKey: PlainKey;
  /** The command's own options, between `event` and `share`. */
  options?: (builder: SlashCommandOptionsOnlyBuilder) => SlashCommandOptionsOnlyBuilder;
  /** The query the command's options ask, for the target the `member` and `event` options name. */
  queryOf(ctx: CommandContext, target: MemberTarget): Query;
  pageId: CustomIdCodec<Value>;
  /** The query a page button carries. */
  queryOfPage(id: Value): Query;
  paged: PagedQuery<Query>;
}): BotCommand {
  const withTarget = localizedCommand(command.nameKey, command.descriptionKey)
    .addStringOption((o) =>
      localize(o, 'members.option.member.name', 'members.option.member.description').setAutocomplete(true),
    )
    .addStringOption((o) =>
      localize(o, 'members.option.event.name', command.eventDescriptionKey).setAutocomplete(true),
    );
  return {
    definition: (command.options?.(withTarget) ?? withTarget)
      .addBooleanOption((o) => localize(o, 'members.option.share.name', 'members.option.share.description'))
      .toJSON(),
    defer: personalVisibility,
    async execute(ctx) {
      const { eventor, target } = await memberTarget(ctx);
      await showQueryPage(ctx, eventor, command.paged, command.queryOf(ctx, target), 1);
    },
    autocomplete: memberOrEventChoices,
    components: [queryPageButtons(command.pageId, command.queryOfPage, command.paged)],
  };
}

/**
 * A person's lists and the name to call them by: the club's member list's, else as the lists spell
 * it (a former member or a guest), else the id. Both are asked at once.
 */
export async function personListsAndName<List extends Parameters<typeof nameInLists>[0][number]>(
  ctx: BaseContext,
  eventor: GuildEventor,
  personId: string,
  lists: Promise<readonly List[]>,
): Promise<{ lists: readonly List[]; name: string }> {
  const [found, name] = await Promise.all([lists, ctx.services.club.memberName(eventor, personId)]);
  return { lists: found, name: name ?? nameInLists(found, personId) ?? personId };
}
