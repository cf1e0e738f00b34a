/**
 * Every slash command of the bot, one file each: its definition and its handlers.
 * Add a new command here; `eventor-bot deploy-commands` registers the list with Discord.
 */
import type { BotCommand } from '../src/bot/command.js';
import { activities } from './activities.js';
import { activity } from './activity.js';
import { admin } from './admin.js';
import { cardCommand } from './card.js';
import { cupCommand } from './cup.js';
import { entriesCommand } from './entries.js';
import { eventCommand } from './event.js';
import { eventsCommand } from './events.js';
import { feedsCommand } from './feeds.js';
import { forgetMe } from './forget-me.js';
import { help } from './help.js';
import { link } from './link.js';
import { loginCommand } from './login.js';
import { nextCommand } from './next.js';
import { notifyCommand } from './notify.js';
import { results } from './results.js';
import { seasonCommand } from './season.js';
import { setup } from './setup.js';
import { splitsCommand } from './splits.js';
import { starts } from './starts.js';
import { status } from './status.js';
import { unlink } from './unlink.js';
import { whoami } from './whoami.js';

export const COMMANDS: readonly BotCommand[] = [
  help,
  status,
  setup,
  feedsCommand,
  cupCommand,
  eventsCommand,
  eventCommand,
  entriesCommand,
  starts,
  results,
  nextCommand,
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
