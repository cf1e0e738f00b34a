/**
 * The exit codes of every command (docs/operators.md#exit-codes). deploy/eventor-bot.service's
 * `RestartPreventExitStatus=` names `EXIT_LASTING` (a test checks it), and the launcher of
 * `start --processes` stops every process when one exits with it.
 */

/** Done; after a stop signal, stopped cleanly. */
export const EXIT_OK = 0;
/** A failure at run time that may pass (a network, a server not up yet): a restart may help. */
export const EXIT_FAILURE = 1;
/**
 * A mistake a restart cannot fix: a usage or configuration mistake, or a refusal only Discord or
 * the database can tell (a token Discord refuses, another application's DISCORD_APPLICATION_ID, a
 * database that is damaged, newer, someone else's or in a folder that cannot be made). The
 * operator must change something first.
 */
export const EXIT_LASTING = 2;
