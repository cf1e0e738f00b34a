/**
 * Every slash command of the bot, one file each: its definition and its handlers.
 * Add a new command here; `eventor-bot deploy-commands` registers the list with Discord.
 */
import type { BotCommand } from '../src/bot/command.js';
import { help } from './help.js';
import { status } from './status.js';

export const COMMANDS: readonly BotCommand[] = [help, status];
