import { z } from 'zod';

/** The live kind's options (`/feeds live`). */
export const LiveOptions = z.object({
  /** Besides the board, one short message per finish of a club runner ("Astrid, D10: 2nd, +0:41"). */
  finishes: z.boolean().default(false),
  /**
   * Names the club goes by in LiveResultat besides Eventor's (docs/live-results.md#the-clubs-runners):
   * what the timing software uploaded, added by the admins.
   */
  clubNames: z.array(z.string().min(1).max(100)).max(10).default([]),
});
export type LiveOptions = z.infer<typeof LiveOptions>;
