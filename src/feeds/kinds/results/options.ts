import { z } from 'zod';

/** The results kind's options (`/feeds threads`). */
export const ResultsOptions = z.object({
  /** Open a thread per event under the post, with the club's complete results and split graphs. */
  threads: z.boolean().default(false),
});
export type ResultsOptions = z.infer<typeof ResultsOptions>;
