// Runs one parse of the file named on the command line, under the --max-old-space-size the
// bench gave this process, and prints what it read, so that a parse that skipped work cannot
// pass for a lean one (see peakHeapBytes in parse.ts). It also prints the heap this process uses
// before it reads the document (modules loaded, after a full collection, with --expose-gc), which
// the bench subtracts: that heap is the program's, not the document's.
import { readFileSync } from 'node:fs';
import { parseResultList } from '../../src/eventor/native/index.js';
import { countResults } from './count.js';

(globalThis as { gc?: () => void }).gc?.();
const baselineBytes = process.memoryUsage().heapUsed;
const xml = readFileSync(process.argv[2]!, 'utf8');
const counts = countResults(parseResultList(xml, { timeZone: 'UTC' }));
process.stdout.write(JSON.stringify({ ...counts, baselineBytes }));
