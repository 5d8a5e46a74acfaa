// `npm run fuzz` (and the end of `npm test`): schemathesis against /openapi.json of a collector on
// the embedded database with a seeded domain. Every operation, generated bodies and query strings,
// checked for server errors and for answers outside the documented statuses, media types and
// schemas. FUZZ_SECONDS bounds the run (default 90); FUZZ_SEED makes it repeatable.
//
// The fuzzing copy of the document pins the keys, the domain and the account's session to the
// seeded ones, so generated requests get past authentication and reach the parameters: the
// published document does not carry them. Operations that would lock the run out of its own
// domain (key rotation, sign-out) are left out.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startBenchCollector } from '../bench/bench-collector.ts';
import { pythonTools } from '../helpers/python-tools.ts';
import { fuzzFixture, FUZZ_KEYS, FUZZ_USER } from './fixture.ts';

const SCHEMATHESIS = '4.32.5';
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 90);
const OUT = path.resolve('test-artifacts', 'schemathesis');
const JUNIT = path.join(OUT, 'junit.xml');
/** Operations that change who may call: fuzzing them would lock the run out of its own domain. */
const LEFT_OUT = ['/manage/api/domains/{domain}/keys/{kind}', '/manage/api/account/keys/call-center', '/manage/api/account/webhook/secret'];

type Json = Record<string, any>;

/** Pins every field or parameter named like a key to the seeded key of that name. */
function pinKeys(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(pinKeys);
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Json;
  if (obj.properties) for (const [name, key] of Object.entries(FUZZ_KEYS)) if (obj.properties[name]) obj.properties[name] = { type: 'string', enum: [key] };
  if (obj.in && obj.name && Object.hasOwn(FUZZ_KEYS, obj.name)) obj.schema = { type: 'string', enum: [FUZZ_KEYS[obj.name as keyof typeof FUZZ_KEYS]] };
  if (obj.in === 'path' && obj.name === 'domain') obj.schema = { type: 'string', enum: ['fuzz.test'] };
  for (const value of Object.values(obj)) pinKeys(value);
}

/**
 * schemathesis's exit status, but for errors of its own making: Python 3.11's `ast` module sometimes
 * fails inside Hypothesis ("AST constructor recursion depth mismatch") while it describes a
 * strategy, before any request; that is not an answer of the collector. A failed check, or any
 * other error (a refused connection, a crash), still fails the run.
 */
function verdict(exit: number): number {
  if (exit === 0) return 0;
  const xml = existsSync(JUNIT) ? readFileSync(JUNIT, 'utf8') : '';
  const errors = [...xml.matchAll(/<error[^>]*>([^<]*)/g)].map((m) => m[1]!);
  const toolOnly = !xml.includes('<failure') && errors.length > 0 && errors.every((e) => e.includes('AST constructor recursion depth mismatch'));
  if (toolOnly) console.log(`schemathesis: ${errors.length} error(s) inside Hypothesis itself (Python's ast), no failed check: passed`);
  return toolOnly ? 0 : exit;
}

const st = path.join(pythonTools(`schemathesis-${SCHEMATHESIS}`, [`schemathesis==${SCHEMATHESIS}`]), 'st');
const bench = await startBenchCollector(fuzzFixture, 'fuzz', { telephonyApiKey: FUZZ_KEYS.telephony, signUp: true, delivery: { run: false } });
let code = 1;
try {
  const base = await bench.listen();
  // The collector's own origin is the site's too: the browser doors and the back end both admit it.
  await bench.c.domains.updateOne({ _id: 'fuzz.test' }, { $set: { allowedOrigins: [base] } });
  const login = await fetch(`${base}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(FUZZ_USER) });
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
  for (const p of LEFT_OUT) delete doc.paths[p];
  // The session travels in the headers below; left in the document, schemathesis would make up cookies of its own.
  for (const ops of Object.values(doc.paths) as Json[]) for (const op of Object.values(ops) as Json[]) delete op.security;
  delete doc.components.securitySchemes;
  delete doc.paths['/manage/api/session'].delete;
  pinKeys(doc.paths);
  mkdirSync(OUT, { recursive: true });
  rmSync(JUNIT, { force: true });
  const file = path.join(OUT, 'openapi.fuzz.json');
  writeFileSync(file, JSON.stringify(doc, null, 1));
  const args = [
    '--config-file', path.resolve('test', 'fuzz', 'schemathesis.toml'),
    'run', file, '--url', base,
    '--checks', 'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
    '--max-time', String(SECONDS),
    '--workers', '2',
    '--seed', process.env.FUZZ_SEED ?? '1',
    '--report', process.env.FUZZ_REPORT ?? 'junit', '--report-dir', OUT, '--report-junit-path', JUNIT,
    '-H', `Authorization: Bearer ${FUZZ_KEYS.telephony}`,
    '-H', `Cookie: ${cookie}`,
    '-H', `X-CSRF-Token: ${csrfToken}`,
    '-H', `Origin: ${base}`,
  ];
  console.log(`schemathesis ${SCHEMATHESIS}: ${Object.keys(doc.paths).length} paths, ${SECONDS} s`);
  const exit = await new Promise<number>((resolve) => spawn(st, args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } }).on('exit', (c) => resolve(c ?? 1)));
  code = verdict(exit);
} finally {
  await bench.close();
}
process.exitCode = code;
