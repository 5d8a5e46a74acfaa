// Builds the embedded database, SecantusDB's Rust server (crate secantus-mdb), from the pinned crate, once.
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned: built and tested here. The crate declares Rust 1.98; it builds cleanly with 1.95 (--ignore-rust-version). */
export const SECANTUS_VERSION = '0.5.3-beta.196';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const installRoot = path.join(repoRoot, '.tools', `secantus-mdb-${SECANTUS_VERSION}`);
export const secantusBinaryPath = path.join(installRoot, 'bin', 'secantusd-rs');

/** Returns the binary, building it with cargo when missing (needs cargo, cmake and a C compiler). */
export function ensureSecantusBinary(say: (line: string) => void = console.error): string {
  if (existsSync(secantusBinaryPath)) return secantusBinaryPath;
  for (const tool of ['cargo', 'cmake', 'cc']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error(`Could not build the embedded database: \`${tool}\` is missing (SecantusDB is built with cargo, cmake and a C compiler)`);
    }
  }
  say(`Building the embedded database, SecantusDB ${SECANTUS_VERSION}, with cargo (once, about 7 minutes on 2 cores)...`);
  // Into a scratch root first, so an interrupted build never leaves a half-installed binary behind.
  const partial = `${installRoot}.partial-${process.pid}`;
  try {
    execFileSync('cargo', ['install', 'secantus-mdb', '--version', SECANTUS_VERSION, '--locked', '--ignore-rust-version', '--root', partial], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    rmSync(installRoot, { recursive: true, force: true });
    renameSync(partial, installRoot);
  } catch (err) {
    throw new Error(`Could not build the embedded database: cargo install secantus-mdb ${SECANTUS_VERSION} failed (${(err as Error).message})`);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  say(`SecantusDB built: ${secantusBinaryPath}`);
  return secantusBinaryPath;
}
