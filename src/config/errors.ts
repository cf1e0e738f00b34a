/**
 * The configuration's error, in a module of its own: the command line tells it apart from other
 * failures for every command, and importing it must not load what reading the configuration
 * needs (the Eventor client, zod, undici) for a `--version` or `help`.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One problem, one line; several, a list.
    super(
      problems.length === 1
        ? `Configuration problem: ${problems[0]}`
        : `Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}
