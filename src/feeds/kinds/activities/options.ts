import { z } from 'zod';

/** The club activities kind has no options of its own. */
export const ActivitiesOptions = z.object({});
export type ActivitiesOptions = z.infer<typeof ActivitiesOptions>;
