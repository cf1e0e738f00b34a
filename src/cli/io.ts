/**
 * What every subcommand shares with the dispatcher in main.ts: where output goes, how an error
 * becomes one line, and reading the file a command was given. Its own module so that the subcommands
 * need not import main.ts, which imports them.
 */
import { readFile } from 'node:fs/promises';

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

/**
 * The bytes of a file a command was given, or null after one line on stderr saying why it cannot be
 * read (`eventor-bot <command>: cannot read '<file>': no such file`).
 */
export async function readInputFile(command: string, file: string, io: Pick<Io, 'err'>): Promise<Uint8Array | null> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? ': no such file' : code === 'EISDIR' ? ': it is a folder' : code ? ` (${code})` : '';
    io.err(`eventor-bot ${command}: cannot read '${file}'${why}\n`);
    return null;
  }
}
