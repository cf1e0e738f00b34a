/**
 * What every subcommand shares with the dispatcher in main.ts: where output goes and how an error
 * becomes one line. Its own module so that the subcommands need not import main.ts, which imports them.
 */

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The environment to configure from; the process's own (plus `.env`) when absent. */
  env?: NodeJS.ProcessEnv;
}

/** An error as one line: its message (and its cause's, which often says what really happened). */
export function oneLine(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth++) {
    const text = current instanceof Error ? current.message : String(current);
    if (text && !parts.some((part) => part.includes(text))) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return (parts.join(': ') || 'unknown error').replace(/\s*\n\s*/g, ' ');
}
