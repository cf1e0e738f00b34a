/**
 * The files the bot attaches to what the demo shows (the split pictures of /splits, of a results
 * thread, of a result DM), written to a folder so a person can open them; the transcript names
 * each file's path where the message appears.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where `npm run demo` writes the pictures unless `--pictures <dir>` says otherwise. */
export const DEFAULT_PICTURES_DIR = path.join(tmpdir(), 'eventor-bot-demo-pictures');

/** A file attached to a message, with its bytes (`MessageView.attachments` fits). */
export interface AttachedFile {
  filename: string;
  size: number;
  description?: string | undefined;
  data: Buffer;
}

/** A name safe in any folder: letters, digits, `.`, `_` and `-`, nothing that climbs out of it. */
export function safeFileName(name: string): string {
  const safe = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 120);
  return safe || 'file';
}

export class DemoPictures {
  private readonly written: string[] = [];
  private made = false;

  constructor(readonly dir: string = DEFAULT_PICTURES_DIR) {}

  /** Every file written so far, in order. */
  get files(): readonly string[] {
    return this.written;
  }

  /**
   * Writes a message's files as `<prefix>-<file name>` (a number added if that name was taken in
   * this run) and gives the transcript's lines naming them, with their alt text.
   */
  save(prefix: string, files: readonly AttachedFile[]): string[] {
    const lines: string[] = [];
    for (const file of files) {
      if (!this.made) {
        mkdirSync(this.dir, { recursive: true });
        this.made = true;
      }
      const base = `${safeFileName(prefix)}-${safeFileName(file.filename)}`;
      let name = base;
      for (let n = 2; this.written.includes(path.join(this.dir, name)); n++)
        name = base.replace(/(\.[A-Za-z0-9]+)?$/, `-${n}$1`);
      const target = path.join(this.dir, name);
      writeFileSync(target, file.data);
      this.written.push(target);
      lines.push(`[picture ${file.filename} saved as ${target}${file.description ? `: "${file.description}"` : ''}]`);
    }
    return lines;
  }
}
