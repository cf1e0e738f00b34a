// Runs one parse of the file named on the command line, under the --max-old-space-size the
// bench gave this process, and prints what it read, so that a parse that skipped work cannot
// pass for a lean one (see peakHeapBytes in main.ts).
import { readFileSync } from 'node:fs';
import { parseResultList } from '../eventor/native/index.js';
import { countResults } from './count.js';

const xml = readFileSync(process.argv[2]!, 'utf8');
process.stdout.write(JSON.stringify(countResults(parseResultList(xml, { timeZone: 'UTC' }))));
