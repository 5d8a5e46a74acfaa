// Environment of the collector, validated once at start.
import type { SipEdge } from './softphone/sip-credentials.ts';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BROWSER_LIMITS, type BrowserLimits } from './browser/rate-limit.ts';
import { DEFAULT_GA4_ENDPOINT } from './analytics/ga4.ts';
import { DATA_PAGES_AT_ONCE } from './data/page-gate.ts';
import { DEFAULT_DOMAIN_CACHE_MS } from './domains/domain-cache.ts';
import { DEFAULT_CACHE_SIZE } from './db/embedded.ts';
import { DEFAULT_PORT } from './http/collector-address.ts';
import { secretsKeyOf } from './carriers/secrets.ts';
import { DEFAULT_TWILIO_API_BASE } from './carriers/twilio-client.ts';
import { DEFAULT_ADS_ENDPOINTS, type AdsEndpoints } from './ads/platform-clients.ts';

const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'on', 'yes'].includes(v));

/** Proxies in front of the collector, each adding the address it saw to X-Forwarded-For: a count of
 * hops, `false` (0) or `true` (1, the shipped nginx), never "trust every entry" (the left-most ones are
 * whatever the client wrote). */
const proxyHops = z.string().transform((raw, ctx) => {
  const v = raw.trim().toLowerCase();
  const hops = ['true', 'on', 'yes'].includes(v) ? 1 : ['false', 'off', 'no'].includes(v) ? 0 : /^\d{1,2}$/.test(v) ? Number(v) : NaN;
  if (hops >= 0 && hops <= 10) return hops;
  ctx.addIssue({ code: 'custom', message: 'must be the number of proxies in front of the collector, 0 to 10 (true means 1, false 0)' });
  return z.NEVER;
});

/** An SMTP server's address: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
const smtpUrl = z.string().refine(
  (raw) => {
    try {
      const url = new URL(raw);
      return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be an smtp:// or smtps:// URL, such as smtp://user:password@mail.example.com:587' },
);

/** A sender: `ringtrail@example.com` or `RingTrail <ringtrail@example.com>`. */
const mailFrom = z.string().max(320).regex(/^(?:[^<>\r\n]{0,100}<[^\s<>@]{1,64}@[^\s<>@]{1,253}>|[^\s<>@]{1,64}@[^\s<>@]{1,253})$/, 'must be an e-mail address, or a name and <address>');

const perMinute = z.coerce.number({ error: 'must be a number of requests a minute' }).int().min(1);

const configSchema = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(DEFAULT_PORT),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  DB_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).optional(),
  DB_CACHE_SIZE: z.string().regex(/^\d+(\.\d+)?[KMGT]B?$/i, 'must be a size such as 4G or 512M').default(DEFAULT_CACHE_SIZE),
  MONGODB_DB: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/, 'must be a plain database name').default('ringtrail'),
  TRUST_PROXY: proxyHops.default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BROWSER_LIMIT_PER_IP: perMinute.default(DEFAULT_BROWSER_LIMITS.perIp),
  BROWSER_LIMIT_PER_VISIT: perMinute.default(DEFAULT_BROWSER_LIMITS.perVisit),
  DEMO: flag.optional(),
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(366).default(60),
  /** DEMO's former name, still read when DEMO is unset: DEMO_PAGES=false starts with no demo at all. */
  DEMO_PAGES: flag.optional(),
  TELEPHONY_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  SOFTPHONE_WS_URI: z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' }).optional(),
  SOFTPHONE_SIP_DOMAIN: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/, 'must be a host name').optional(),
  SOFTPHONE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SOFTPHONE_TTL_HOURS: z.coerce.number({ error: 'must be a number of hours' }).min(1, 'must be 1 to 24').max(24, 'must be 1 to 24').default(4),
  SOFTPHONE_ICE_SERVERS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((u) => u.trim()).filter(Boolean))
    .refine((urls) => urls.every((u) => /^(stun|turns?):[^\s]+$/.test(u)), 'must be stun:, turn: or turns: URLs, comma-separated'),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_TWILIO_API_BASE),
  HUBSPOT_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  SALESFORCE_LOGIN_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  SECRETS_KEY: z
    .string()
    .refine((v) => secretsKeyOf(v) !== null, 'must be 32 random bytes, base64 (openssl rand -base64 32)')
    .optional(),
  NODE_ENV: z.string().optional(),
  ALLOW_PRIVATE_WEBHOOKS: flag.optional(),
  GA4_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_GA4_ENDPOINT),
  /** Where the ad platforms are reached (ads/): theirs, a proxy, a test's stand-in. */
  GOOGLE_DATA_MANAGER_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_ADS_ENDPOINTS.googleDataManager),
  GOOGLE_OAUTH_TOKEN_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  META_GRAPH_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_ADS_ENDPOINTS.metaGraph),
  MICROSOFT_ADS_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_ADS_ENDPOINTS.microsoftAds),
  MICROSOFT_OAUTH_TOKEN_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).default(DEFAULT_ADS_ENDPOINTS.microsoftOAuthToken),
  SIGN_UP: flag.optional(),
  DB_OPERATION_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(100).max(600_000).default(3000),
  REQUEST_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1000).max(600_000).default(30_000),
  DOMAIN_CACHE_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(60_000).default(DEFAULT_DOMAIN_CACHE_MS),
  DATA_PAGES_AT_ONCE: z.coerce.number({ error: 'must be a number of pages' }).int().min(1).max(10_000).default(DATA_PAGES_AT_ONCE),
  WORKERS: z.coerce.number({ error: 'must be a number of processes' }).int().min(1).max(64).default(1),
  METRICS_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailFrom.optional(),
  /** `local`: the bundled engine (transcripts/local-engine.ts); else an OpenAI-compatible engine's base URL. */
  TRANSCRIBE_URL: z.union([z.literal('local'), z.url({ protocol: /^https?$/ })], { error: 'must be local (the bundled engine) or the http(s) base URL of an OpenAI-compatible speech-to-text service' }).optional(),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_MODEL: z.string().min(1).max(200).optional(),
  TRANSCRIBE_LOCAL_MODEL: z.string().min(1).optional(),
  TRANSCRIBE_CONCURRENCY: z.coerce.number({ error: 'must be a number of transcripts at once' }).int().min(1).max(16).default(1),
  /** The owner's language model (issue 66): an OpenAI-compatible chat completions base URL, with its /v1. */
  ANALYZE_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) base URL of an OpenAI-compatible chat completions service, with its /v1 (http://127.0.0.1:11434/v1)' }).optional(),
  ANALYZE_API_KEY: z.string().min(1).optional(),
  ANALYZE_MODEL: z.string().min(1).max(200).optional(),
  ANALYZE_CONCURRENCY: z.coerce.number({ error: 'must be a number of analyses at once' }).int().min(1).max(16).default(1),
  ANALYZE_MAX_CHARS: z.coerce.number({ error: 'must be a number of characters' }).int().min(1000).max(1_000_000).default(12_000),
});

export interface Config {
  /** `production` for any NODE_ENV but unset, `development` and `test`: no demo, no sign-up unless asked. */
  mode: 'production' | 'development';
  port: number;
  host: string;
  dataDir: string;
  mongodbUri?: string;
  mongodbDb: string;
  /** The embedded database's port (DB_PORT); unset: any free one. Unused with MONGODB_URI. */
  dbPort?: number;
  /** The embedded database's cache (DB_CACHE_SIZE); unused with MONGODB_URI. */
  cacheSize: string;
  /** Proxies in front of the collector (TRUST_PROXY): the client's address is the one the outermost
   * of them saw, this many entries from the end of X-Forwarded-For; 0: the connection's address. */
  proxyHops: number;
  logLevel: string;
  browserLimits: BrowserLimits;
  /** The demo (DEMO): its fixture loaded into an empty database, and its pages under /demo/. Off in production. */
  demo: boolean;
  /** Days of generated traffic the demo starts with on an empty database (demo/history.ts); 0: none. */
  demoHistoryDays: number;
  telephonyApiKey?: string;
  /** The SIP edge browsers' softphones register with (SOFTPHONE_*, issue 82); absent: no SIP softphone. */
  softphone?: SipEdge;
  twilioAuthToken?: string;
  /** Where Twilio's REST API is reached (TWILIO_API_BASE): Twilio's own host, a regional edge, a proxy, a test's stand-in. */
  twilioApiBase: string;
  /** Where HubSpot's API is reached (HUBSPOT_API_BASE): a proxy, a test's stand-in; unset: HubSpot's own host. */
  hubspotApiBase?: string;
  /** Where Salesforce's OAuth login is reached (SALESFORCE_LOGIN_URL): a private cloud, a test's stand-in; unset: login.salesforce.com (test.salesforce.com for a sandbox). */
  salesforceLoginUrl?: string;
  /** SECRETS_KEY, decoded: carrier credentials are stored only with it. */
  secretsKey?: Buffer;
  publicUrl?: string;
  /** Webhooks may target loopback and private addresses (on by default in development and test). */
  allowPrivateWebhooks: boolean;
  ga4Endpoint: string;
  /** The ad platforms' addresses (GOOGLE_DATA_MANAGER_ENDPOINT, GOOGLE_OAUTH_TOKEN_URL). */
  adsEndpoints: AdsEndpoints;
  /** The back end's sign-up page (SIGN_UP; on unless in production). */
  signUp: boolean;
  /** The bearer key of GET /metrics (METRICS_KEY); unset, metrics are off. */
  metricsKey?: string;
  /** Collector processes sharing the port (WORKERS; node:cluster). */
  workers: number;
  /** How long one database operation of the collector may take before it fails (DB_OPERATION_TIMEOUT_MS). */
  operationTimeoutMs: number;
  /** A request not arrived whole by then is answered 408 and its connection closed (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** How long a process keeps a domain found by its key (DOMAIN_CACHE_MS); 0: no cache. */
  domainCacheMs: number;
  /** /data-api pages of one domain a process reads at once (DATA_PAGES_AT_ONCE). */
  dataPagesAtOnce: number;
  /** Mail (SMTP_URL, MAIL_FROM); unset: nothing is ever sent (mail/mailer.ts). */
  mail?: { smtpUrl: string; from: string };
  /** Speech-to-text (TRANSCRIBE_*); unset: no call is transcribed. */
  transcribe?: TranscribeConfig;
  /** The owner's language model (ANALYZE_*); unset: no call is analysed. */
  analyze?: { url: string; apiKey?: string; model: string; concurrency: number; maxChars: number };
}

export interface TranscribeConfig {
  /** `local`, or the engine's base URL. */
  url: string;
  apiKey?: string;
  /** Sent as `model`: TRANSCRIBE_MODEL, else `whisper-1` (OpenAI's name), the bundled model's own locally. */
  model?: string;
  /** A CTranslate2 Whisper model's directory for the bundled engine, instead of tiny.en. */
  localModel?: string;
  concurrency: number;
}

export class ConfigError extends Error {}

/** Reads the environment; empty variables count as unset. Throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  // Production unless told otherwise: only an unset NODE_ENV, `development` or `test` is not production
  // (`Production`, `prod` or `staging` are: no demo with its public password on a typo).
  const mode = c.NODE_ENV === undefined || ['development', 'test'].includes(c.NODE_ENV) ? 'development' : 'production';
  return {
    mode,
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    ...(c.MONGODB_URI ? { mongodbUri: c.MONGODB_URI } : {}),
    mongodbDb: c.MONGODB_DB,
    ...(c.DB_PORT ? { dbPort: c.DB_PORT } : {}),
    cacheSize: c.DB_CACHE_SIZE,
    proxyHops: c.TRUST_PROXY,
    logLevel: c.LOG_LEVEL,
    browserLimits: { perIp: c.BROWSER_LIMIT_PER_IP, perVisit: c.BROWSER_LIMIT_PER_VISIT },
    demo: c.DEMO ?? c.DEMO_PAGES ?? mode === 'development',
    demoHistoryDays: c.DEMO_HISTORY_DAYS,
    ...(c.TELEPHONY_API_KEY ? { telephonyApiKey: c.TELEPHONY_API_KEY } : {}),
    ...softphoneOf(c),
    ...(c.TWILIO_AUTH_TOKEN ? { twilioAuthToken: c.TWILIO_AUTH_TOKEN } : {}),
    twilioApiBase: c.TWILIO_API_BASE,
    ...(c.HUBSPOT_API_BASE ? { hubspotApiBase: c.HUBSPOT_API_BASE } : {}),
    ...(c.SALESFORCE_LOGIN_URL ? { salesforceLoginUrl: c.SALESFORCE_LOGIN_URL } : {}),
    adsEndpoints: { googleDataManager: c.GOOGLE_DATA_MANAGER_ENDPOINT, metaGraph: c.META_GRAPH_API_BASE, microsoftAds: c.MICROSOFT_ADS_API_BASE, microsoftOAuthToken: c.MICROSOFT_OAUTH_TOKEN_URL, ...(c.GOOGLE_OAUTH_TOKEN_URL ? { googleOAuthToken: c.GOOGLE_OAUTH_TOKEN_URL } : {}) },
    ...(c.SECRETS_KEY ? { secretsKey: secretsKeyOf(c.SECRETS_KEY)! } : {}),
    ...(c.PUBLIC_URL ? { publicUrl: c.PUBLIC_URL } : {}),
    // In development (`npm start`, NODE_ENV unset), as docs/configuration.md says: its demo and a
    // carrier stand-in on loopback must be reachable; production refuses them unless told.
    allowPrivateWebhooks: c.ALLOW_PRIVATE_WEBHOOKS ?? mode === 'development',
    ga4Endpoint: c.GA4_ENDPOINT,
    signUp: c.SIGN_UP ?? mode === 'development',
    ...(c.METRICS_KEY ? { metricsKey: c.METRICS_KEY } : {}),
    workers: c.WORKERS,
    operationTimeoutMs: c.DB_OPERATION_TIMEOUT_MS,
    requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
    domainCacheMs: c.DOMAIN_CACHE_MS,
    dataPagesAtOnce: c.DATA_PAGES_AT_ONCE,
    ...(c.SMTP_URL ? { mail: { smtpUrl: c.SMTP_URL, from: c.MAIL_FROM ?? defaultSender(c.PUBLIC_URL) } } : {}),
    ...(c.TRANSCRIBE_URL
      ? {
          transcribe: {
            url: c.TRANSCRIBE_URL,
            ...(c.TRANSCRIBE_API_KEY ? { apiKey: c.TRANSCRIBE_API_KEY } : {}),
            ...(c.TRANSCRIBE_MODEL ? { model: c.TRANSCRIBE_MODEL } : {}),
            ...(c.TRANSCRIBE_LOCAL_MODEL ? { localModel: path.resolve(c.TRANSCRIBE_LOCAL_MODEL) } : {}),
            concurrency: c.TRANSCRIBE_CONCURRENCY,
          },
        }
      : {}),
    ...(c.ANALYZE_URL ? { analyze: { url: c.ANALYZE_URL, ...(c.ANALYZE_API_KEY ? { apiKey: c.ANALYZE_API_KEY } : {}), model: c.ANALYZE_MODEL ?? 'gpt-4o-mini', concurrency: c.ANALYZE_CONCURRENCY, maxChars: c.ANALYZE_MAX_CHARS } } : {}),
  };
}

/** The sender when MAIL_FROM is unset: ringtrail@ the public host (the loopback one without it). */
function defaultSender(publicUrl: string | undefined): string {
  return `RingTrail <ringtrail@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`;
}

/** Why a collector must not start with this configuration, or null. In production every link the
 * collector mails or shows (invitations, password resets, alerts, recordings, shared links) is built
 * from PUBLIC_URL: without it a link would name wherever the process listens, or invite a guess. */
export function startRefusal(config: Config): string | null {
  if (config.mode === 'production' && !config.publicUrl) {
    return 'PUBLIC_URL must be set in production: every link the collector mails or shows (invitations, password resets, alerts, recordings, shared links) starts with it, never with the Host a request names. Set it to the address people reach the collector at, such as https://calls.example.com';
  }
  return null;
}

/** The configuration of a process that starts the collector (the collector, its supervisor): a bad
 * environment is said on stderr, naming each bad variable, and the process exits 1. */
export function loadConfigOrExit(): Config {
  try {
    const config = loadConfig();
    const refusal = startRefusal(config);
    if (refusal) throw new ConfigError(refusal);
    return config;
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}

/** The SIP edge, when its address and secret are both set (one without the other stops the start). */
function softphoneOf(c: { SOFTPHONE_WS_URI?: string | undefined; SOFTPHONE_SIP_DOMAIN?: string | undefined; SOFTPHONE_SECRET?: string | undefined; SOFTPHONE_TTL_HOURS: number; SOFTPHONE_ICE_SERVERS: string[] }): { softphone?: SipEdge } {
  if (!c.SOFTPHONE_WS_URI && !c.SOFTPHONE_SECRET) return {};
  if (!c.SOFTPHONE_WS_URI || !c.SOFTPHONE_SECRET) throw new Error('Invalid configuration: SOFTPHONE_WS_URI and SOFTPHONE_SECRET go together (the edge\'s address, and the secret it shares)');
  return { softphone: { wsUri: c.SOFTPHONE_WS_URI, domain: c.SOFTPHONE_SIP_DOMAIN ?? new URL(c.SOFTPHONE_WS_URI).hostname, secret: c.SOFTPHONE_SECRET, ttlSeconds: Math.round(c.SOFTPHONE_TTL_HOURS * 3600), iceUrls: c.SOFTPHONE_ICE_SERVERS } };
}
