// The script a site loads: <script async src=".../tracker.js" data-key="pk-..."></script>.
import { startTracker, type TrackerOptions } from './tracker.ts';
import { consent, currentVisitId, mayStore } from './visit-cookie.ts';

/** Clearly a robot: skip every request (the collector's own check catches the subtler ones). */
const ROBOT = /bot|crawl|spider/i;

const script = document.currentScript as HTMLScriptElement;
const options = script.dataset as TrackerOptions;
consent(options.consent != 'pending');

/** For shop pages: `RingTrail.ready.then(...)` once numbers are in place; `RingTrail.visitId()` for the
 * commerce services; `RingTrail.consent(true|false)` from the site's consent banner; `consented()`,
 * what the visitor answered. */
(window as unknown as { RingTrail: object }).RingTrail = {
  ready:
    navigator.webdriver || ROBOT.test(navigator.userAgent)
      ? Promise.resolve()
      : startTracker(options, options.collector || new URL(script.src).origin),
  visitId: currentVisitId,
  consent,
  // The form capture (forms.ts) sends nothing without the visitor's consent.
  consented: mayStore,
};
