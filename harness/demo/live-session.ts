/**
 * Part 4 of `npm run demo`: race day, live (docs/live-results.md#race-day-in-discord). The real
 * bot on the sandbox Discord, Eventor and LiveResultat, on a simulated clock from before a race's
 * first start: the admin turns the `live` kind on with finish messages, a member asks for the DM
 * about her own finish, and the transcript shows the board as it grows (when the first runners are
 * out, halfway, when everyone is home), the finish messages, the member's DM, and the board turning
 * final once Eventor's official results are posted.
 */
import { millisecondsInMinute as MINUTE } from 'date-fns/constants';
import {
  type MessageView,
  renderMessageText,
  type SandboxUser,
  type TimestampReader,
} from '../sandbox/discord/index.js';
import { SANDBOX_TIME_ZONE } from '../sandbox/eventor/dataset.js';
import { liveRaceOf } from '../loopback/live-race.js';
import { startLoopbackWorld } from '../loopback/world.js';
import { humanize, indent } from './bot-session.js';

/** The pollers' turn. */
const TURN_MS = 5_000;
/** At most this many turns (a race takes about 2,000). */
const MAX_TURNS = 5_000;

const stamp = new Intl.DateTimeFormat('en-GB', {
  timeZone: SANDBOX_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export interface LiveSessionResult {
  /** What the walk expected and did not see (empty when everything happened). */
  problems: string[];
  boards: number;
  edits: number;
  finishes: number;
  dms: number;
}

export async function runLiveSession(
  write: (line: string) => void,
  options: {
    /** The instant the sandbox's data is made around (the demo's start, as part 3's): the race is one before it. */
    base: Date;
  },
): Promise<LiveSessionResult> {
  let clock = options.base.getTime();
  const now = () => new Date(clock);
  const world = await startLoopbackWorld({ now, live: {}, eventorFollowsClock: true });
  const problems: string[] = [];
  try {
    const { competition, race, clubs, firstStart, lastUpload } = liveRaceOf(world, options.base);
    const ev = world.eventor.dataset.event(competition.eventId!)!;
    ev.hasStartList = true;
    ev.hasResults = false;
    ev.materialized = null;
    const runner = race.classes
      .flatMap((c) => c.runners)
      .find((r) => r.club === clubs[0] && !r.ghost && r.personId !== null && r.final?.status === 0)!;
    const live = world.discord.createTextChannel(world.guild.id, { name: 'live' });
    const results = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    const names = new Map([
      [live.id, 'live'],
      [results.id, 'resultat'],
      [world.member.id, world.member.username],
    ]);
    const reader = (): TimestampReader => ({ locale: 'en-GB', timeZone: SANDBOX_TIME_ZONE, now: clock });
    const show = (message: MessageView): string =>
      indent(humanize(renderMessageText(message, { reader: reader() }), reader(), names));
    const say = (line: string) => write(`\n── [${stamp.format(now())}] ${line}`);
    const command = async (user: SandboxUser, name: string, subcommand: string, options: Record<string, string>) => {
      const shown = Object.entries(options)
        .map(([k, v]) => `${k}: ${names.has(v) ? `#${names.get(v)}` : v}`)
        .join(' ');
      say(`${user.username} used /${name} ${subcommand} ${shown}`);
      const reply = await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user,
          locale: 'en-GB',
          name,
          subcommand,
          options,
        })
        .reply({ timeoutMs: 15_000 });
      write(show(reply));
    };

    write(
      `The race: ${ev.name}, on LiveResultat as competition ${competition.id}; first start ${stamp.format(new Date(firstStart))}.`,
    );
    clock = firstStart - 40 * MINUTE;
    await command(world.admin, 'feeds', 'on', { kind: 'live', channel: live.id });
    await command(world.admin, 'feeds', 'live', { finishes: 'on' });
    await command(world.admin, 'feeds', 'on', { kind: 'results', channel: results.id });
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, runner.personId!, 'credentials');
    await command(world.member, 'notify', 'on', { what: 'live' });
    await world.bot.scheduler.tick(now(), { force: true });

    const boardOf = () => world.discord.messages(live.id).find((m) => m.embeds.length > 0);
    const moments = [
      { at: firstStart - 30 * MINUTE, what: 'the board, before the first start' },
      { at: firstStart + 15 * MINUTE, what: 'the board, the first runners out' },
      { at: firstStart + Math.round((lastUpload - firstStart) / 2), what: 'the board, halfway' },
      { at: lastUpload + MINUTE, what: 'the board, everyone home' },
    ];
    let finishes = 0;
    let shownFinish = false;
    let turns = 0;
    for (const moment of moments) {
      while (clock < moment.at && turns < MAX_TURNS) {
        clock += TURN_MS;
        turns++;
        await world.bot.live!.turn(now());
        const finishMessages = world.discord.messages(live.id).filter((m) => m.embeds.length === 0);
        if (!shownFinish && finishMessages.length > 0) {
          shownFinish = true;
          say('#live, a finish message:');
          write(show(finishMessages[0]!));
        }
        finishes = finishMessages.length;
      }
      const board = boardOf();
      if (board === undefined) {
        problems.push(`no board at ${moment.what}`);
        continue;
      }
      say(`#live, ${moment.what} (${board.edits.length} edit${board.edits.length === 1 ? '' : 's'} so far):`);
      write(show(board));
    }
    const dms = world.discord.dms(world.member).filter((m) => !m.content.includes('You will get DMs here from'));
    if (dms.length === 1) {
      say(`${world.member.username}'s DMs, the bot:`);
      write(show(dms[0]!));
    } else problems.push(`${dms.length} finish DMs to the member, not one`);

    // Eventor's official results come out: the results post, and the board says final with its link.
    ev.hasResults = true;
    ev.materialized = null;
    clock += 10 * MINUTE;
    await world.bot.scheduler.tick(now(), { force: true });
    await world.bot.live!.turn(now());
    const board = boardOf();
    if (board === undefined || !(board.embeds[0]?.title ?? '').startsWith('Slutligt'))
      problems.push('the board did not turn final');
    if (board !== undefined) {
      say('Eventor published the results: #resultat has its post, and #live, the board:');
      write(show(board));
    }
    const boards = world.discord.messages(live.id).filter((m) => m.embeds.length > 0).length;
    if (boards !== 1) problems.push(`${boards} boards, not one`);
    if (finishes === 0) problems.push('no finish message');
    if (turns >= MAX_TURNS) problems.push('the race did not end within the turns allowed');
    return { problems, boards, edits: board?.edits.length ?? 0, finishes, dms: dms.length };
  } finally {
    await world.close();
  }
}
