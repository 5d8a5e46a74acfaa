// Where the build writes the tracker and the collector serves it from.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const trackerBundlePath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist', 'tracker.js');
