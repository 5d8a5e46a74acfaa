// What `npm start` does for someone trying RingTrail: the demo fixture loaded into an empty
// database, and a banner with the demo's keys, its back-end user and a curl line to try.
import { utcMinute } from './domains/dates.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFixtureFile } from './cli/fixture-file.ts';
import type { Fixture } from './cli/fixture.ts';
import { seedFixture } from './cli/seed-service.ts';
import type { Config } from './config.ts';
import { generateDemoHistory } from './demo/history.ts';
import { hashKey } from './domains/keys.ts';
import type { Logger } from './logger.ts';
import type { DomainCollections } from './domains/documents.ts';
import type { AllCollections } from './house/all-collections.ts';

const DEMO_FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/demo.json');
/** The demo fixture's domain, the one its history is made for. */
const DEMO_DOMAIN = 'acme.example';

/** True when the database was empty and now holds the demo. */
export async function seedDemoIfEmpty(c: AllCollections, log: Logger): Promise<boolean> {
  if ((await c.domains.countDocuments({}, { limit: 1 })) > 0) return false;
  await seedFixture(c, await readFixtureFile(DEMO_FIXTURE));
  log.info({ fixture: DEMO_FIXTURE }, 'empty database: demo fixture loaded');
  return true;
}

/** The demo's past, made in the background while the collector already answers; says so first. */
export function startDemoHistory(c: AllCollections, days: number, log: Logger): void {
  if (days === 0) return;
  console.log(`Demo history: making ${days} days of traffic in the background (about a second a day); the reports fill as it goes`);
  const started = Date.now();
  void generateDemoHistory(c, DEMO_DOMAIN, { days }).then(
    (made) => made && log.info({ ...made, seconds: Math.round((Date.now() - started) / 1000) }, 'demo history made'),
    (err: unknown) => log.error({ err }, 'the demo history could not be made'),
  );
}

/** The origins a browser uses to open the demo pages of a collector listening on `host`:`port`:
 * loopback by both its names, whatever interface it listens on. */
export function demoOrigins(host: string, port: number, publicUrl?: string): string[] {
  const hosts = new Set([host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host]);
  if (hosts.has('127.0.0.1') || hosts.has('localhost')) hosts.add('127.0.0.1').add('localhost');
  return [...[...hosts].map((h) => `http://${h}:${port}`), ...(publicUrl ? [new URL(publicUrl).origin] : [])];
}

/** On every start, the demo domains also allow the address the collector listens on now: the
 * fixture's own origins are for port 8080, and a demo on another port would refuse its own pages. */
export async function allowDemoOrigins(c: DomainCollections, origins: string[], log: Logger): Promise<void> {
  const fixture = await readFixtureFile(DEMO_FIXTURE);
  for (const d of fixture.accounts.flatMap((a) => a.domains)) {
    const { modifiedCount } = await c.domains.updateOne({ _id: d.name }, { $addToSet: { allowedOrigins: { $each: origins } } });
    if (modifiedCount) log.info({ domain: d.name, origins }, 'demo domain: the origins it is served on now allowed');
  }
}

export async function printBanner(c: AllCollections, config: Config, base: string, database: string, workers = 1): Promise<void> {
  console.log(`RingTrail collector on ${base}${workers > 1 ? ` (${workers} processes)` : ''}\nDatabase: ${database}\n${modeLine(config)}`);
  const demo = config.demo ? await demoBanner(c, await readFixtureFile(DEMO_FIXTURE), base) : '';
  if (demo) console.log(demo);
  else if ((await c.users.countDocuments({}, { limit: 1 })) === 0) {
    // create-user made an invitation: the first user is on their way, not missing.
    const waiting = await c.invitations.findOne({ kind: 'invitation', usedAt: { $exists: false }, revokedAt: { $exists: false }, expiresAt: { $gt: new Date() } }, { sort: { createdAt: -1 } });
    if (waiting) console.log(`No user yet: the invitation of ${waiting.username} (account ${waiting.accountId}) waits, until ${utcMinute(waiting.expiresAt)}. A new link: npm run admin -- create-user --account ${waiting.accountId} --username ${waiting.username}`);
    else if (config.signUp) console.log(`No user yet${config.demo ? '' : ' (no demo: DEMO is off)'}: sign up at ${base}/manage/ (SIGN_UP is on), or npm run admin -- create-user --account NAME --username EMAIL`);
    else console.log(`No user yet${config.demo ? '' : ' (no demo: DEMO is off)'}: npm run admin -- create-user --account NAME --username EMAIL`);
  }
  if (!config.telephonyApiKey) console.log('Telephony (/telephony/*) is off: set TELEPHONY_API_KEY (16+ characters) to report calls');
  console.log(transcriptsLine(config));
  console.log(`Back end: ${base}/manage/`);
  if (config.demo) console.log(`Demo site: ${base}/demo/ (direct display) and ${base}/demo/click (click display)`);
}

/** Where calls' recordings are transcribed, if anywhere: each domain then turns transcripts on in its settings. */
function transcriptsLine(config: Config): string {
  const url = config.transcribe?.url;
  if (!url) return 'Transcripts are off: set TRANSCRIBE_URL (local: the bundled engine, installed on first start) to transcribe recordings';
  const engine = url === 'local' ? `the bundled engine on this machine (${config.transcribe?.localModel ?? 'Whisper tiny.en'})` : `the engine at ${new URL(url).host}`;
  return `Transcripts: ${engine}; each domain turns them on in its settings`;
}

/** Which mode runs, from what, and what it turns on: a typo in NODE_ENV is seen at the first start. */
function modeLine(config: Config): string {
  const env = process.env.NODE_ENV ? `NODE_ENV=${process.env.NODE_ENV}` : 'NODE_ENV unset';
  const parts = [`demo ${config.demo ? 'on' : 'off'}`, `sign-up ${config.signUp ? 'on' : 'off'}`];
  return `Mode: ${config.mode} (${env}; only unset, development and test are not production): ${parts.join(', ')}`;
}

/** The demo's keys, printed while they are still the ones in the database. */
async function demoBanner(c: DomainCollections, fixture: Fixture, base: string): Promise<string> {
  const lines: string[] = [];
  for (const account of fixture.accounts) {
    for (const d of account.domains) {
      const stored = await c.domains.findOne({ _id: d.name });
      if (!stored || !d.apiKey || stored.apiKeyHash !== hashKey(d.apiKey)) continue;
      lines.push(
        `Demo domain ${d.name} (account ${account.name}):`,
        `  api_key (/ospView, /ospClick, /ospExpiration): ${d.apiKey}`,
        `  data api_key: ${d.dataApiKey ?? '-'}    offline key: ${d.offlineApiKey ?? '-'}`,
        `  customer key: ${d.customerKey ?? '-'}    public key: ${d.publicKey ?? '-'}    call-center apiKey: ${account.callCenterApiKey ?? '-'}`,
        `  site phones: ${d.sitePhones.join(', ')}`,
        ...account.users.map((u) => `  back end user: ${u.username}, password ${u.password} (sign in at ${base}/manage/)`),
        `Try: curl -s ${base}/ospView -d api_key=${d.apiKey} -d visit_id=0 -d ip=203.0.113.7 -d url=https://${d.name}/ -d page_title=Home -d is_mobile=false -d referer_url= -d nr_phones=1 -d direct_display=true -d phones=${d.sitePhones[0] ?? ''}`,
      );
    }
  }
  return lines.join('\n');
}
