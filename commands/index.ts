/**
 * Every slash command of the bot, one file each: its definition and its handlers.
 * Add a new command here; `eventor-bot deploy-commands` registers the list with Discord.
 */
import type { BotCommand } from '../src/bot/command.js';
import type { FeedKind } from '../src/feeds/kind.js';
import { KINDS } from '../src/feeds/registry.js';
import { activities } from './activities.js';
import { activity } from './activity.js';
import { admin } from './admin.js';
import { cardCommand } from './card.js';
import { cupCommand } from './cup.js';
import { entriesCommand } from './entries.js';
import { eventCommand } from './event.js';
import { eventsCommand } from './events.js';
import { feedsCommandFor } from './feeds.js';
import { forgetMe } from './forget-me.js';
import { help } from './help.js';
import { link } from './link.js';
import { liveCommand } from './live.js';
import { loginCommand } from './login.js';
import { nextCommand } from './next.js';
import { notifyCommand } from './notify.js';
import { results } from './results.js';
import { seasonCommand } from './season.js';
import { setupCommandFor } from './setup.js';
import { splitsCommand } from './splits.js';
import { starts } from './starts.js';
import { status } from './status.js';
import { unlink } from './unlink.js';
import { whoami } from './whoami.js';

/**
 * The commands, with `/setup` and `/feeds` built for these kinds of automatic post (the registry's;
 * a test's with a kind of its own, given the bot too: `BotOptions.kinds`).
 */
export function commandsFor(kinds: readonly FeedKind[]): readonly BotCommand[] {
  return [
    help,
    status,
    setupCommandFor(kinds),
    feedsCommandFor(kinds),
    cupCommand,
    eventsCommand,
    eventCommand,
    entriesCommand,
    starts,
    results,
    nextCommand,
    liveCommand,
    splitsCommand,
    seasonCommand,
    activities,
    activity,
    loginCommand,
    cardCommand,
    link,
    unlink,
    whoami,
    notifyCommand,
    admin,
    forgetMe,
  ];
}

export const COMMANDS: readonly BotCommand[] = commandsFor(KINDS);
