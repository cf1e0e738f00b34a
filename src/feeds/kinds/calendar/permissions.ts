import { PermissionFlagsBits } from 'discord.js';
import type { Permission } from '../../delivery/post-channels.js';

/**
 * What the server's scheduled events need, server-wide: Create Events to create the races'
 * scheduled events, Manage Events to edit or delete ones others made (docs/discord.md#scheduled-events).
 */
export const SCHEDULED_EVENT_PERMISSIONS: readonly Permission[] = [
  [PermissionFlagsBits.CreateEvents, 'feeds.perm.createEvents'],
  [PermissionFlagsBits.ManageEvents, 'feeds.perm.manageEvents'],
];
