import { EventorError, InvalidResponse } from '../eventor/errors.js';
import { parseXmlFile, READABLE_FILES } from '../eventor/parse-file.js';
import { isValidTimeZone } from '../time/zones.js';
import { type ParsedArgs, rejectLeftovers, takeString, UsageError } from './args.js';
import { type Io, readInputFile } from './io.js';

export async function runParse(args: ParsedArgs, io: Pick<Io, 'out' | 'err'>): Promise<number> {
  const [file, extra] = args.positionals;
  if (file === undefined) throw new UsageError('name the file to parse: eventor-bot parse <file>');
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  const timeZone = takeString(args.flags, 'time-zone');
  if (timeZone !== undefined && !isValidTimeZone(timeZone))
    throw new UsageError(`--time-zone '${timeZone}' is not an IANA time zone (e.g. Europe/Stockholm)`);
  rejectLeftovers(args.flags);

  const bytes = await readInputFile('parse', file, io);
  if (bytes === null) return 1;
  try {
    const parsed = parseXmlFile(bytes, timeZone === undefined ? {} : { timeZone });
    io.out(`${JSON.stringify(parsed, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof EventorError) {
      // A local file, not an answer from Eventor: the problem itself, not "unusable response".
      const problem =
        error instanceof InvalidResponse ? `${error.problem}${error.path ? ` at ${error.path}` : ''}` : error.message;
      io.err(`eventor-bot parse: '${file}' cannot be read: ${problem}. parse reads ${READABLE_FILES}\n`);
      return 1;
    }
    throw error;
  }
}
