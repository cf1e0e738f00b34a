import { z } from 'zod';

/** The cup standings kind has no options of its own: every cup of the server (`/cup`) gets its post. */
export const CupStandingsOptions = z.object({});
export type CupStandingsOptions = z.infer<typeof CupStandingsOptions>;
