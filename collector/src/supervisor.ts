// `npm start` (and the container's command): runs the collector (main.ts) in a child process and
// starts it again when it crashes, so that one fatal request (out of memory, a bug that throws
// outside a request) costs a restart, not the service. Rules, in order:
//
// 1. The environment is checked here first: a bad one is refused once, not restarted.
// 2. SIGINT or SIGTERM is passed to the collector once; it drains its requests and stops its
//    database, and this process exits with its code.
// 3. A collector that exits by itself with code 0 was stopped on purpose: this process exits too.
// 4. Any other exit (a non-zero code, a signal such as SIGKILL) is a crash: logged at error, and the
//    collector is started again after a back-off (0.5 s, doubling to 30 s while it keeps crashing).
// 5. The 5th crash within 5 minutes makes this process exit 1: a container's restart policy, or the
//    person at the terminal, takes over.
//
// The collector runs in a process group of its own (Ctrl-C reaches it once, through here) with a
// parent-death signal (it stops when this process is killed), as the embedded database does for
// the collector (db/embedded.ts): nothing outlives its owner.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigOrExit } from './config.ts';
import { withParentDeathSignal } from './parent-death.ts';
import { createLogger } from './logger.ts';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 5 * 60_000;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

const config = loadConfigOrExit();
const log = createLogger(config.logLevel);

let child: ChildProcess | null = null;
let stopping = false;
let crashes: number[] = [];

function start(): void {
  const [command, ...args] = withParentDeathSignal([process.execPath, '--import', 'tsx', MAIN]);
  child = spawn(command!, args, { stdio: 'inherit', detached: true });
  const pid = child.pid;
  child.once('exit', (code, signal) => {
    child = null;
    if (stopping || code === 0) process.exit(code ?? 0);
    const now = Date.now();
    crashes = [...crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
    if (crashes.length >= MAX_CRASHES) {
      log.fatal({ collectorPid: pid, code, signal, crashes: crashes.length }, `the collector crashed ${crashes.length} times within ${CRASH_WINDOW_MS / 60_000} minutes: giving up`);
      process.exit(1);
    }
    const backoffMs = Math.min(FIRST_BACKOFF_MS * 2 ** (crashes.length - 1), MAX_BACKOFF_MS);
    log.error({ collectorPid: pid, code, signal, crashes: crashes.length, backoffMs }, 'the collector crashed: starting it again');
    setTimeout(() => stopping || start(), backoffMs);
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return; // Ctrl-C reaches this process from the terminal and from npm: pass it on once
    stopping = true;
    if (child) child.kill('SIGTERM');
    else process.exit(0); // between a crash and the next start
  });
}

start();
