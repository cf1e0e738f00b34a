import { z } from 'zod';

/** The start lists kind has no options of its own. */
export const StartListsOptions = z.object({});
export type StartListsOptions = z.infer<typeof StartListsOptions>;
