// A child process that stops when the process that started it dies, however it dies (SIGKILL, out of
// memory): Linux's PR_SET_PDEATHSIG, set by util-linux's setpriv before it runs the program. The
// embedded database is started so by the collector, and the collector by `npm start`'s supervisor:
// nothing outlives its owner. Without setpriv (not Linux), the program runs as it is.
import { existsSync } from 'node:fs';

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

/** `args` (a program and its arguments) as run with SIGTERM on the parent's death. */
export function withParentDeathSignal(args: string[]): string[] {
  return SETPRIV ? [SETPRIV, '--pdeathsig', 'SIGTERM', '--', ...args] : args;
}
