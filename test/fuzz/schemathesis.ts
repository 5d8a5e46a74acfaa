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
import { writeStepResult, type Counts } from '../helpers/step-result.ts';
import { fuzzFixture, FUZZ_KEYS, FUZZ_MEMBER, FUZZ_USER } from './fixture.ts';
import { standInAccount, standInNumber, startTwilioApi } from '../helpers/twilio-api.ts';

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
  // Never the run's own user: a role changed or a removal would end its session.
  if (obj.in === 'path' && obj.name === 'username') obj.schema = { type: 'string', enum: [FUZZ_MEMBER.username] };
  for (const value of Object.values(obj)) pinKeys(value);
}

const TOOL_ONLY_ERROR = 'AST constructor recursion depth mismatch';

/**
 * Each operation in schemathesis's JUnit report is one test: failed on any failed check or error of
 * the collector's making, skipped where schemathesis skipped it, or where its only errors are
 * Hypothesis's own (Python 3.11's `ast` module sometimes fails inside Hypothesis while it describes
 * a strategy, before any request: not an answer of the collector), else passed.
 */
function operationCounts(): Counts | null {
  if (!existsSync(JUNIT)) return null;
  const xml = readFileSync(JUNIT, 'utf8');
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const [testcase] of xml.matchAll(/<testcase\b[^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)) {
    const errors = [...testcase.matchAll(/<error[^>]*>([^<]*)/g)].map((m) => m[1]!);
    if (testcase.includes('<failure') || errors.some((e) => !e.includes(TOOL_ONLY_ERROR))) counts.failed++;
    else if (errors.length > 0 || testcase.includes('<skipped')) counts.skipped++;
    else counts.passed++;
  }
  if (counts.skipped > 0) console.log(`schemathesis: ${counts.skipped} operation(s) skipped, by schemathesis or for errors inside Hypothesis itself (${TOOL_ONLY_ERROR})`);
  return counts;
}

const st = path.join(pythonTools(`schemathesis-${SCHEMATHESIS}`, [`schemathesis==${SCHEMATHESIS}`]), 'st');
// The account's carrier is a loopback stand-in of Twilio's REST API: the carrier routes reach it.
const FUZZ_TWILIO = { accountSid: 'AC0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f', authToken: 'fuzz-twilio-auth-token' };
const twilioApi = await startTwilioApi([standInAccount(FUZZ_TWILIO.accountSid, FUZZ_TWILIO.authToken, { numbers: [standInNumber('+33800000009')], available: { FR: { TollFree: ['+33800000010', '+33800000011'] } } })]);
const bench = await startBenchCollector(fuzzFixture, 'fuzz', { telephonyApiKey: FUZZ_KEYS.telephony, signUp: true, delivery: { run: false }, secretsKey: Buffer.alloc(32, 9), twilioApiBase: twilioApi.base });
let code = 1;
try {
  const base = await bench.listen();
  // The collector's own origin is the site's too: the browser doors and the back end both admit it.
  await bench.c.domains.updateOne({ _id: 'fuzz.test' }, { $set: { allowedOrigins: [base] } });
  const login = await fetch(`${base}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(FUZZ_USER) });
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const connected = await fetch(`${base}/manage/api/account/carrier`, { method: 'PUT', headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken, origin: base }, body: JSON.stringify({ provider: 'twilio', ...FUZZ_TWILIO }) });
  if (!connected.ok) throw new Error(`connecting the carrier stand-in: ${connected.status} ${await connected.text()}`);
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
  for (const p of LEFT_OUT) delete doc.paths[p];
  // The session travels in the headers below; left in the document, schemathesis would make up cookies of its own.
  for (const ops of Object.values(doc.paths) as Json[]) for (const op of Object.values(ops) as Json[]) delete op.security;
  delete doc.components.securitySchemes;
  delete doc.paths['/manage/api/session'].delete;
  // schemathesis has no serializer for audio: it sends a recording's upload as plain bytes, which the
  // collector refuses with its documented 400 (the audio itself is tested in test/recordings).
  for (const ops of Object.values(doc.paths) as Json[]) {
    for (const op of Object.values(ops) as Json[]) {
      const content = op.requestBody?.content as Json | undefined;
      if (content && Object.keys(content).every((type) => type.startsWith('audio/'))) op.requestBody.content = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };
    }
  }
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
  // schemathesis's exit status, but for errors of Hypothesis's own making (above).
  const counts = operationCounts();
  if (counts) writeStepResult('fuzzing', counts);
  code = exit === 0 || (counts !== null && counts.failed === 0 && counts.skipped > 0) ? 0 : exit;
} finally {
  await bench.close();
  await twilioApi.close();
}
process.exitCode = code;
