// Builds the embedded database, FerretDB v1 on its SQLite backend, from its Go module, once.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest v1.x release that the Go module proxy serves and that builds with this Go toolchain. */
export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ferretdbBinaryPath = path.join(repoRoot, '.tools', `ferretdb-${FERRETDB_VERSION}`, 'ferretdb');

/**
 * Returns the binary, building it when missing. Not `go install ${MODULE}/cmd/ferretdb@tag`: that
 * asks the proxy for the module's version list (refused here), and a binary built in module mode
 * panics at start without build/version/version.txt, which only release builds generate. So the
 * module is downloaded, copied, given that file and built.
 */
export function ensureFerretdbBinary(say: (line: string) => void = console.error): string {
  if (existsSync(ferretdbBinaryPath)) return ferretdbBinaryPath;
  say(`Building FerretDB ${FERRETDB_VERSION} with ${run('go', ['version']).trim()} (once, about two minutes)...`);
  const download = JSON.parse(run('go', ['mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`])) as { Dir: string };
  const buildDir = path.join(repoRoot, '.tools', `ferretdb-src-${process.pid}`);
  try {
    rmSync(buildDir, { recursive: true, force: true });
    cpSync(download.Dir, buildDir, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', buildDir]); // the module cache is read-only
    writeFileSync(path.join(buildDir, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    mkdirSync(path.dirname(ferretdbBinaryPath), { recursive: true });
    const partial = `${ferretdbBinaryPath}.partial`;
    run('go', ['build', '-trimpath', '-o', partial, './cmd/ferretdb'], buildDir);
    execFileSync('mv', [partial, ferretdbBinaryPath]);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
  say(`FerretDB built: ${ferretdbBinaryPath}`);
  return ferretdbBinaryPath;
}

function run(command: string, args: string[], cwd?: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  } catch (err) {
    throw new Error(`Could not build FerretDB: \`${command} ${args.join(' ')}\` failed (${(err as Error).message})`);
  }
}
