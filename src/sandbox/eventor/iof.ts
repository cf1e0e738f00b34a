/**
 * Access to the IOF XML 3.0 writer (`iof-writer.ts`, written by a colleague). Loaded on first use
 * so that everything else in the sandbox works even while that module is missing; the iofxml
 * routes then answer 501.
 */
import type { ResultList, StartList } from '../../eventor/model.js';
import { HttpError } from './context.js';

export interface IofWriteOptions { createTime: string; timeZone?: string }

export interface IofWriter {
  writeIofStartList(list: StartList, options: IofWriteOptions): string | string[];
  writeIofResultList(list: ResultList, options: IofWriteOptions): string | string[];
}

let loaded: Promise<IofWriter | null> | null = null;

export async function loadIofWriter(): Promise<IofWriter> {
  // A computed specifier keeps tsc from requiring the module at compile time.
  const specifier = './iof-writer.js';
  loaded ??= (import(specifier) as Promise<IofWriter>).catch(() => null);
  const writer = await loaded;
  if (!writer || typeof writer.writeIofResultList !== 'function') {
    loaded = null;
    throw new HttpError(501, 'The IOF XML writer is not available.');
  }
  return writer;
}
