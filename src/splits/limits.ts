/**
 * What the bot analyses at most (docs/splits.md#limits). The analysis is n log n in the runners of
 * a course and linear in its controls, yet a course of many thousand runners still keeps a member
 * waiting for seconds and its analysis holds hundreds of megabytes; beyond these sizes every place
 * that shows the analysis (`/splits`, `/results` with splits, the results thread, the result DM)
 * says so in the same words (`splits.tooLarge`) instead. No real class or course comes near them.
 */

/** Runners of one class (one race of it, one relay leg) analysed at most. */
export const MAX_CLASS_RUNNERS = 5_000;
/** Controls of one course analysed at most; beyond them a picture could not show the legs either. */
export const MAX_COURSE_CONTROLS = 100;
/** Club runners whose analysis one results thread shows at most, over all its pictures. */
export const MAX_THREAD_CLUB_RUNNERS = 3_000;
