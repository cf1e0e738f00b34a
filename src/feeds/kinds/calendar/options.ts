import { z } from 'zod';

/** The calendar kind's options (`/feeds filter`). */
export const CalendarOptions = z.object({
  /** Which classifications besides the events the club organises or has entered. */
  classificationIds: z.array(z.string()).default([]),
});
export type CalendarOptions = z.infer<typeof CalendarOptions>;
