// Lets `npm start` and `npm test` work on a fresh clone: installs the locked dependencies once
// (whose postinstall builds the embedded database). Plain JavaScript: nothing is installed yet.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../node_modules/.package-lock.json', import.meta.url))) {
  console.error('First run: installing dependencies (npm ci)...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}
