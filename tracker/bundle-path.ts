// Where the build writes the tracker and the collector serves it from.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const trackerBundlePath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist', 'tracker.js');
/** The form capture, a script of its own that the core loads where form tracking is on. */
export const formsBundlePath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist', 'tracker-forms.js');
/** The ads consent (Google's consent mode read from the page), a script of its own that the core loads where an ad platform is connected. */
export const adsBundlePath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist', 'tracker-ads.js');
