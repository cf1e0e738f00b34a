import { PermissionFlagsBits } from 'discord.js';
import type { Permission } from '../../delivery/post-channels.js';

/** What a thread under a results post needs besides posting in the channel itself. */
export const THREAD_PERMISSIONS: readonly Permission[] = [
  [PermissionFlagsBits.CreatePublicThreads, 'feeds.perm.createThreads'],
  [PermissionFlagsBits.SendMessagesInThreads, 'feeds.perm.sendInThreads'],
];
