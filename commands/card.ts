/**
 * /card [number] [type]: the member's competitor settings in Eventor (timing chips, preselected
 * classes), and with a number a change of one chip: checked for its type before anything is
 * sent, confirmed with a button that shows old and new, saved by read-modify-write (everything
 * but that one chip is written back as Eventor had it), then read back and shown. Any link shows
 * the settings; a change needs a link made with the person's Eventor password (`/link eventor`).
 */
import { ApplicationIntegrationType, ButtonStyle, ComponentType, InteractionContextType } from 'discord.js';
import { z } from 'zod';
import {
  type BaseContext,
  type BotCommand,
  customIdCodec,
  type GuildEventor,
  idField,
  onComponent,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { requireProvenLink } from '../src/bot/members.js';
import { ownPersonId } from '../src/bot/options.js';
import type { Card, Competitor } from '../src/eventor/answers.js';
import { escapeName, truncateMarkdown } from '../src/render/index.js';

type ChipType = 'SI' | 'Emit' | 'emiTag';
const CHIP_TYPES: readonly ChipType[] = ['SI', 'Emit', 'emiTag'];
const TYPE_NAMES: Record<ChipType, string> = { SI: 'SPORTident', Emit: 'Emit', emiTag: 'emiTag' };

/**
 * SPORTident numbers are at most 7 digits: SI-Card 5 up to 499 999, SI-Card 6 from 500 000, SI-Card 9
 * 1 000 000+, SI-Card 8 2 000 000+, pCard/tCard 4 and 6 million, SI-Card 10/SIAC/SI-Card 11 7–9 million.
 * Emit's EKT cards and emiTags are printed with up to 7 digits too. Only the outer bound is
 * enforced: refusing a real card of a series we do not list would be worse than a typo Eventor keeps.
 */
const RANGES: Record<ChipType, { min: number; max: number }> = {
  SI: { min: 1, max: 9_999_999 },
  Emit: { min: 1, max: 9_999_999 },
  emiTag: { min: 1, max: 9_999_999 },
};

const CONFIRM_TTL_MS = 10 * 60 * 1000;
const SETTINGS_TEXT_MAX = 1500;

/**
 * The save button of a chip change: for whom, which person, the chip, and when it was offered (Unix
 * seconds). Nothing in it is trusted beyond its shape: the handler checks the clicker, the link and
 * the number again.
 */
export const confirmCardId = customIdCodec(
  'card:confirm',
  z.object({
    userId: idField(),
    personId: idField(),
    type: z.enum(CHIP_TYPES as [ChipType, ...ChipType[]]),
    number: z.string().regex(/^\d{1,9}$/),
    issued: z.number().int().min(0),
  }),
);
const cancelCardId = customIdCodec('card:cancel', z.object({}));

function isChipType(value: string | null | undefined): value is ChipType {
  return value !== null && value !== undefined && (CHIP_TYPES as readonly string[]).includes(value);
}

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** A typed chip number, canonical (no spaces, no leading zeros), or a message naming the range. */
export function checkChipNumber(ctx: Pick<BaseContext, 't'>, value: string, type: ChipType | null): string {
  const text = value.replace(/[\s\u00a0]/g, '');
  const range = RANGES[type ?? 'SI'];
  const n = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= range.min && n <= range.max)) {
    throw new UserFacingError('card.error.badNumber', {
      // Echo only harmless characters: the text goes back into a message.
      value: value.replace(/[^0-9A-Za-z .-]/g, '').slice(0, 20),
      type: TYPE_NAMES[type ?? 'SI'],
      min: grouped(range.min),
      max: grouped(range.max),
      ranges: (type ?? 'SI') === 'SI' ? ctx.t('card.ranges.si') : '',
    });
  }
  return String(n);
}

/**
 * The person's settings as Eventor has them, or an empty set when they never saved any. `fresh`
 * bypasses the client cache, so a write never builds on a copy older than a change made on the web.
 */
async function findCompetitor(eventor: GuildEventor, personId: string, fresh = false): Promise<Competitor> {
  const listed = (await eventor.client.call('competitors', { organisationId: eventor.organisationId }, { fresh })).find(
    (c) => (c.personId ?? c.person?.id) === personId,
  );
  // The single GET is the one Eventor documents for read-modify-write
  // (docs/eventor.md#competitor-settings-read-modify-write).
  if (listed?.competitorId) return eventor.client.call('competitor', { competitorId: listed.competitorId }, { fresh });
  return {
    competitorId: null,
    personId,
    person: null,
    organisationId: eventor.organisationId,
    cards: [],
    preselectedClasses: [],
    disciplineId: null,
    modifiedAt: null,
  };
}

const cardText = (card: Card | undefined): string => (card ? `${card.type ?? '?'} ${card.number}` : '—');

function settingsText(ctx: BaseContext, name: string, c: Competitor): string {
  const none = ctx.t('card.show.none');
  // Card types and numbers and class names are Eventor's text, escaped like any name.
  const cards = c.cards.map(
    (card) =>
      `${card.type ? (TYPE_NAMES[card.type as ChipType] ?? escapeName(card.type)) : '?'} ${escapeName(card.number)}`,
  );
  const classes = [...c.preselectedClasses]
    .sort((a, b) => a.sequence - b.sequence)
    .map((p) => escapeName(p.classShortName ?? p.baseClassId ?? '?'));
  // Room is left for the line before it ("Saved.") or the hint after it within Discord's 2,000.
  return truncateMarkdown(
    [
      `**${ctx.t('card.show.title', { name })}**`,
      `${ctx.t('card.show.cards')}: ${cards.length > 0 ? cards.join(', ') : none}`,
      `${ctx.t('card.show.classes')}: ${classes.length > 0 ? classes.join(', ') : none}`,
    ].join('\n'),
    SETTINGS_TEXT_MAX,
  );
}

const PROOF_REFUSALS = { notLinked: 'card.error.notYours', notProven: 'card.error.notProven' } as const;

/**
 * The clicker must be the member the confirm was made for, and the person still theirs, linked
 * with the person's Eventor password (a chip change acts as the person).
 */
async function checkOwner(ctx: BaseContext, clickerId: string, userId: string, personId: string): Promise<void> {
  if (clickerId !== userId) throw new UserFacingError('card.error.notYours');
  await requireProvenLink(ctx, clickerId, personId, PROOF_REFUSALS);
}

export const cardCommand: BotCommand = {
  definition: localizedCommand('card.name', 'card.description')
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((o) => localize(o, 'card.option.number.name', 'card.option.number.description').setMaxLength(20))
    .addStringOption((o) =>
      localize(o, 'card.option.type.name', 'card.option.type.description').addChoices(
        ...CHIP_TYPES.map((type) => ({ name: TYPE_NAMES[type], value: type })),
      ),
    )
    .toJSON(),
  defer: 'ephemeral',
  // Any link shows the settings. A change (a number given) needs the person's own password link,
  // checked per person below: its refusal names the person and how they are linked, which the
  // router's one message for `linked: 'credentials'` could not.
  requires: { linked: 'any' },
  async execute(ctx) {
    const user = ctx.interaction.user;
    const personId = await ownPersonId(ctx, user.id);
    const typed = ctx.interaction.options.getString('number');
    const typeOption = ctx.interaction.options.getString('type');
    const givenType = isChipType(typeOption) ? typeOption : null;
    // Checked before Eventor is asked anything.
    const number = typed === null ? null : checkChipNumber(ctx, typed, givenType);
    // Any link shows the settings; only a proven one offers to change them.
    if (number !== null) await requireProvenLink(ctx, user.id, personId, PROOF_REFUSALS);
    const eventor = await ctx.guild.eventor();
    const [competitor, name] = await Promise.all([
      findCompetitor(eventor, personId),
      ctx.services.club.memberName(eventor, personId),
    ]);
    const who = escapeName(name ?? personId);
    if (number === null) {
      const proven = await ctx.services.linking.hasProvenLink(ctx.guild.id!, user.id, personId);
      await ctx.answer({
        content: `${settingsText(ctx, who, competitor)}\n\n${ctx.t(proven ? 'card.show.hint' : 'card.show.hintNotProven')}`,
      });
      return;
    }
    if (name === null) throw new UserFacingError('card.error.notInClub');
    // Without a type the member means the chip they have, if it is one of the three.
    const current = competitor.cards.find((c) => isChipType(c.type));
    const type: ChipType = givenType ?? (isChipType(current?.type) ? current.type : 'SI');
    const old = competitor.cards.find((c) => c.type === type);
    const issued = Math.floor(ctx.now().getTime() / 1000);
    await ctx.answer({
      content: ctx.t('card.confirm.prompt', {
        type: TYPE_NAMES[type],
        name: who,
        old: old ? escapeName(old.number) : ctx.t('card.show.none'),
        new: number,
      }),
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.Button,
              style: ButtonStyle.Primary,
              label: ctx.t('card.confirm.save'),
              custom_id: confirmCardId.encode({ userId: user.id, personId, type, number, issued }),
            },
            {
              type: ComponentType.Button,
              style: ButtonStyle.Secondary,
              label: ctx.t('card.confirm.cancel'),
              custom_id: cancelCardId.encode({}),
            },
          ],
        },
      ],
    });
  },
  components: [
    onComponent(confirmCardId, {
      defer: 'update',
      // Saving acts as the person in Eventor, and only a /card prompt made for a password link
      // carries this button: a member with no such link at all is refused by the router, before
      // anything is acknowledged or asked. Which person, and whose prompt, is checked below.
      requires: { linked: 'credentials' },
      async handle(ctx, { userId, personId, type: typeArg, number: numberArg, issued: issuedSeconds }) {
        const clicker = ctx.interaction.user.id;
        // Nothing in the custom id is trusted: who clicked, whose person, which number.
        await checkOwner(ctx, clicker, userId, personId);
        const issued = issuedSeconds * 1000;
        if (ctx.now().getTime() - issued > CONFIRM_TTL_MS || issued - ctx.now().getTime() > 60_000) {
          await ctx.answer({ content: ctx.t('card.expired'), components: [] });
          return;
        }
        const number = checkChipNumber(ctx, numberArg, typeArg);
        const eventor = await ctx.guild.eventor();
        // A member at this moment, not as of a cached list: the write acts as the person.
        if (!(await ctx.services.club.member(eventor, personId, { fresh: true })))
          throw new UserFacingError('card.error.notInClub');
        const fresh = await findCompetitor(eventor, personId, true);
        const index = fresh.cards.findIndex((c) => c.type === typeArg);
        // A copy: the client's answer is frozen and shared; the new settings are built beside it.
        const cards = [...fresh.cards];
        const before = index >= 0 ? cards[index] : undefined;
        if (index >= 0) cards[index] = { number, type: typeArg };
        else cards.push({ number, type: typeArg });
        const saved = await eventor.client.saveCompetitor({ ...fresh, cards });
        await ctx.services.audit.record({
          guildId: ctx.guild.id!,
          actorId: clicker,
          personId,
          action: 'card',
          detail: `${cardText(before)} -> ${typeArg} ${number}`,
        });
        const competitorId = saved.competitorId ?? fresh.competitorId;
        const readBack = competitorId ? await eventor.client.competitor({ competitorId }) : saved;
        const name = escapeName((await ctx.services.club.memberName(eventor, personId)) ?? personId);
        await ctx.answer({
          content: `${ctx.t('card.saved')}\n${settingsText(ctx, name, readBack)}`,
          components: [],
        });
      },
    }),
    onComponent(cancelCardId, {
      defer: 'update',
      async handle(ctx) {
        await ctx.answer({ content: ctx.t('card.cancelled'), components: [] });
      },
    }),
  ],
};
