import { z } from 'zod';

/** Lead times: at most this many, each at most this many days. */
export const MAX_LEAD_DAYS = 5;
export const LEAD_DAY_MAX = 60;

/** The reminders kind's options (`/feeds reminders`). */
export const RemindersOptions = z.object({
  /** Days before an entry deadline to remind (default 7 and 1). */
  leadDays: z.array(z.number().int().min(0).max(LEAD_DAY_MAX)).max(MAX_LEAD_DAYS).default([7, 1]),
  /** Also remind of late-entry deadlines. */
  lateEntry: z.boolean().default(true),
});
export type RemindersOptions = z.infer<typeof RemindersOptions>;
