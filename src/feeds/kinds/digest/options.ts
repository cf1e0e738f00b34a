import { z } from 'zod';

/** The digest's days, ISO numbering (1 Monday to 7 Sunday). */
export const DIGEST_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The weekly digest's options (`/feeds digest`). */
export const DigestOptions = z.object({
  /** The day of the week it comes, ISO numbering (1 Monday to 7 Sunday; default Thursday). */
  digestDay: z.number().int().min(1).max(7).default(4),
  /** The local time it comes on that day, `HH:MM` in the server's zone. */
  digestTime: z
    .string()
    .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/)
    .default('18:00'),
});
export type DigestOptions = z.infer<typeof DigestOptions>;
