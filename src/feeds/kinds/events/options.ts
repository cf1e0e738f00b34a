import { z } from 'zod';

/** The new-events kind's options (`/feeds filter`). */
export const EventsOptions = z.object({
  /** Which classifications (1-6) besides the club's and district's own; empty: none. */
  classificationIds: z.array(z.string()).default([]),
});
export type EventsOptions = z.infer<typeof EventsOptions>;
