/**
 * The live kind's own part of `/feeds`: `/feeds live finishes: club-name:` (a message per finish;
 * names the club goes by on LiveResultat besides Eventor's), and its lines in `/feeds show`: those
 * settings, and today's races with the competition each follows and how it was found.
 */
import { UserFacingError } from '../../../i18n/user-facing-error.js';
import type { FeedSettings } from '../../feed.js';
import type { KindAdminContext, KindSubcommand } from '../../kind.js';
import { escapeName, plainText } from '../../../render/index.js';
import { localDate } from '../../cadence.js';
import { matchWords } from './matching.js';
import { LiveOptions } from './options.js';
import { raceTitle, readRaceRecord } from './race.js';

/** The most names admins may add for the club. */
const MAX_NAMES = 10;

function namesText(ctx: KindAdminContext<LiveOptions>, options: LiveOptions): string {
  return options.clubNames.length === 0
    ? ctx.t('feeds.live.noNames')
    : options.clubNames.map((name) => `"${plainText(name, 100).replace(/[`*_~|>]/g, '')}"`).join(', ');
}

export const liveSubcommand: KindSubcommand<LiveOptions> = {
  name: 'feeds.live.name',
  description: 'feeds.live.description',
  options: [
    {
      type: 'string',
      name: 'feeds.opt.finishes.name',
      description: 'feeds.opt.finishes.description',
      choices: [
        { label: 'feeds.show.on', value: 'on' },
        { label: 'feeds.show.off', value: 'off' },
      ],
    },
    { type: 'string', name: 'feeds.opt.clubName.name', description: 'feeds.opt.clubName.description', maxLength: 100 },
  ],
  async run(input, ctx) {
    const finishes = input['finishes'];
    const name = input['club-name'];
    const change: Partial<LiveOptions> = {};
    if (finishes !== null && finishes !== undefined) {
      if (finishes !== 'on' && finishes !== 'off') throw new UserFacingError('error.unexpected');
      change.finishes = finishes === 'on';
    }
    if (typeof name === 'string') {
      const trimmed = name.replace(/\s+/g, ' ').trim();
      if (trimmed === '-') change.clubNames = [];
      else {
        const before = (await ctx.settings()).options.clubNames;
        // A name is compared with the club strings LiveResultat shows, never shown raw: it is still checked here.
        if (trimmed === '' || trimmed.length > 100 || /[\u0000-\u001F\u007F]/.test(trimmed))
          throw new UserFacingError('feeds.live.badName');
        const names = before.some((n) => n.toLowerCase() === trimmed.toLowerCase()) ? before : [...before, trimmed];
        if (names.length > MAX_NAMES) throw new UserFacingError('feeds.live.badName');
        change.clubNames = names;
      }
    }
    const after = Object.keys(change).length > 0 ? await ctx.update(change) : await ctx.settings();
    return ctx.t('feeds.live.done', {
      finishes: ctx.t(after.options.finishes ? 'feeds.show.on' : 'feeds.show.off'),
      names: namesText(ctx, after.options),
    });
  },
};

/** `/feeds show`: the settings, and today's races with the competition each follows. */
export async function describeLive(
  settings: FeedSettings<LiveOptions>,
  ctx: KindAdminContext<LiveOptions>,
): Promise<string[]> {
  const options = LiveOptions.parse(settings.options);
  const lines = [
    ctx.t('feeds.show.liveFinishes', { value: ctx.t(options.finishes ? 'feeds.show.on' : 'feeds.show.off') }),
    ctx.t('feeds.show.liveNames', { value: namesText(ctx, options) }),
  ];
  const today = localDate(ctx.now(), ctx.timeZone);
  for (const row of await ctx.parts.live.races(settings.guildId, today, today)) {
    const record = readRaceRecord(row.race);
    // Names from Eventor: shown without markdown of their own.
    const race = escapeName(raceTitle(record));
    lines.push(ctx.t('feeds.show.liveRace', { race, how: matchWords(ctx, row) }));
  }
  return lines;
}
