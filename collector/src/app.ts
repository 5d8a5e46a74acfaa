// Builds the Koa app from a database handle. No listen: main.ts and the tests do that.
import type { SipEdge } from './softphone/sip-credentials.ts';
import { TextBackSender, textBackGivenUp } from './texting/text-back.ts';
import { FlowRunner } from './flows/flow-runner.ts';
import { Analyzer } from './analysis/analyzer.ts';
import { ModelClient, type AnalyzeSettings } from './analysis/model-client.ts';
import { pbxFlows } from './flows/pbx-flow.ts';
import { twilioFlows } from './flows/twilio-flow.ts';
import { PromptAudio } from './flows/prompt-audio.ts';
import { promptRoutes } from './flows/prompt-routes.ts';
import Koa from 'koa';
import type { Db } from 'mongodb';
import { adsBundlePath, formsBundlePath, trackerBundlePath } from '../../tracker/bundle-path.ts';
import { demoRoutes } from './browser/demo.ts';
import { BrowserRateLimit, DEFAULT_BROWSER_LIMITS, type BrowserLimits } from './browser/rate-limit.ts';
import { browserRoutes } from './browser/routes.ts';
import { trackerScriptRoutes } from './browser/tracker-script.ts';
import { allCollections, type AllCollections } from './house/all-collections.ts';
import { IdAllocator } from './db/ids.ts';
import { DatabaseStallWatch } from './db/stall-watch.ts';
import { healthRoutes } from './http/health.ts';
import { homeRoutes } from './http/home.ts';
import { refuseUnknownMethods } from './http/methods.ts';
import { requestLog } from './http/request-log.ts';
import type { Logger } from './logger.ts';
import { ListenLinks } from './recordings/listen-links.ts';
import { dataRoutes } from './data/routes.ts';
import { DEFAULT_PUBLIC_URL } from './http/collector-address.ts';
import { manageNotFound } from './http/manage-envelope.ts';
import { DataService } from './data/service.ts';
import { offlineRoutes } from './offline/routes.ts';
import { OfflineNumbers } from './offline/service.ts';
import { CallRouter } from './telephony/routing.ts';
import { DialledNumbers } from './domains/dialled-numbers.ts';
import { DomainCache } from './domains/domain-cache.ts';
import { telephonyRoutes } from './telephony/routes.ts';
import { TelephonyService } from './telephony/service.ts';
import { twilioRoutes, type TwilioOptions } from './telephony/twilio.ts';
import { LiveCalls } from './agent/live-calls.ts';
import { agentRoutes } from './agent/routes.ts';
import { AgentService } from './agent/service.ts';
import { commerceRoutes } from './commerce/routes.ts';
import { CommerceService } from './commerce/service.ts';
import { DEFAULT_DELIVERY, DeliveryWorker, type DeliveryOptions } from './webhooks/delivery-worker.ts';
import { LivePush } from './agent/live-push.ts';
import { Outbox } from './webhooks/outbox.ts';
import { manageRoutes } from './manage/routes.ts';
import { DEFAULT_SIGN_IN_LIMITS, SignInLimit, type SignInLimits } from './team/sign-in-limit.ts';
import { managePageRoutes } from './manage/pages.ts';
import { sharedPageRoutes } from './manage/shared-link-routes.ts';
import { Metrics } from './metrics/metrics.ts';
import { measureRequests, metricsRoutes } from './metrics/routes.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { PoolSampler } from './reports/pool-sampler.ts';
import { TrafficBuffer } from './reports/traffic-buffer.ts';
import { TrafficDays } from './reports/traffic-days.ts';
import { NumberPool } from './tracking/pool.ts';
import { trackingRoutes } from './tracking/routes.ts';
import { TrackingService } from './tracking/service.ts';
import { DEFAULT_GA4_ENDPOINT } from './analytics/ga4.ts';
import { Mailer, type MailSettings } from './mail/mailer.ts';
import { CARRIER_DELETE, RecordingFetcher, type RecordingJob } from './recordings/fetcher.ts';
import { RecordingStates } from './recordings/states.ts';
import { CarrierConnections } from './carriers/connections.ts';
import { SecretBox } from './carriers/secrets.ts';
import { CrmConnections } from './crm/connections.ts';
import { crmClients, DEFAULT_CRM_HOSTS } from './crm/clients.ts';
import { CrmSync, type CrmJob } from './crm/crm-sync.ts';
import { crmPersonRefs } from './people/crm-refs.ts';
import { wireTexting } from './texting/texting.ts';
import { textToRules } from './texting/rule-texts.ts';
import { ClickToCall } from './outbound/click-to-call.ts';
import { DiallingPolicies } from './dialling/policies.ts';
import { twilioOutbound } from './outbound/twilio-outbound.ts';
import { CallAlerts } from './alerts/call-alerts.ts';
import { DEFAULT_TWILIO_API_BASE } from './carriers/twilio-client.ts';
import { NumberCheck } from './carriers/number-check.ts';
import { formRoutes } from './forms/routes.ts';
import { FormSubmissions } from './forms/submissions.ts';
import { wireWrites } from './house/writes.ts';
import { RuleRuns } from './rules/rule-runs.ts';
import { EngineClient, type EngineSettings } from './transcripts/engine-client.ts';
import { RESPOT_JOB, Transcriber } from './transcripts/transcriber.ts';
import { People } from './people/people.ts';
import { Recordings } from './recordings/recordings.ts';
import { RecordingStore } from './recordings/store.ts';
import { RecordingRetention } from './recordings/retention.ts';
import { AlertMailer } from './alerts/alert-mailer.ts';
import { Mailing } from './alerts/mailing.ts';
import { SummarySender } from './alerts/summary-sender.ts';
import { WarningWatch } from './alerts/warning-watch.ts';
import { unsubscribeRoutes } from './alerts/unsubscribe-routes.ts';
import { ruleMailAddress } from './alerts/rule-mails.ts';
import { AdsConnections } from './ads/connections.ts';
import { ConnectedDomains } from './ads/connected-domains.ts';
import { AdsSender } from './ads/ads-sender.ts';
import { leadMarks } from './ads/lead-marks.ts';
import { DEFAULT_ADS_ENDPOINTS, PlatformClients, type AdsEndpoints } from './ads/platform-clients.ts';

export interface AppOptions {
  db: Db;
  log: Logger;
  /** Proxies in front of the collector (TRUST_PROXY): the client's address is the one the outermost
   * of them saw, this many entries from the end of X-Forwarded-For (Koa's maxIpsCount); 0: none. */
  proxyHops?: number;
  /** Rate limits of the browser doors (/t/*). */
  browserLimits?: BrowserLimits;
  /** Serve the demo site under /demo/. */
  demoPages?: boolean;
  /** The platform-wide key of /telephony/* (`Authorization: Bearer`); unset, those doors answer 403. */
  telephonyApiKey?: string;
  twilio?: TwilioOptions;
  /** Where Twilio's REST API is reached (TWILIO_API_BASE); default Twilio's own host. */
  twilioApiBase?: string;
  /** Where HubSpot's API is reached (HUBSPOT_API_BASE); default HubSpot's own host. */
  hubspotApiBase?: string;
  /** Where Salesforce's OAuth login is reached (SALESFORCE_LOGIN_URL); default login.salesforce.com, or test.salesforce.com for a sandbox. */
  salesforceLoginUrl?: string;
  /** Where the ad platforms are reached (ads/platform-clients.ts); theirs by default. */
  adsEndpoints?: Partial<AdsEndpoints>;
  /** How long after a request Google is first asked what it made of it (ads/google-request-status.ts); a minute by default. */
  adsStatusAfterMs?: number;
  /** SECRETS_KEY: carrier credentials are stored, sealed, only with it. */
  secretsKey?: Buffer;
  /** Webhook and analytics delivery; `run: false` leaves the outbox to other processes. */
  delivery?: Partial<DeliveryOptions> & { run?: boolean };
  /** GA4 Measurement Protocol endpoint of the purchase events (tests point it at a local receiver). */
  ga4Endpoint?: string;
  /** Sign-in attempts to the back end allowed per quarter of an hour. */
  signInLimits?: SignInLimits;
  /** The back end's sign-up page: on unless NODE_ENV is production (config.ts: SIGN_UP). */
  signUp?: boolean;
  /** The SIP edge members' softphones register with (issue 82); absent: none. */
  softphone?: SipEdge;
  /** How often the pools' held numbers are sampled for the pool report (ms). */
  poolSampleMs?: number;
  /** The bearer key of GET /metrics; unset, metrics are off (404). */
  metricsKey?: string;
  /** How long a process keeps a domain found by its key (domains/domain-cache.ts); 0: no cache. */
  domainCacheMs?: number;
  /** /data-api pages of one domain read at once (data/page-gate.ts); the benchmark compares. */
  dataPagesAtOnce?: number;
  /** Mail (SMTP_URL, MAIL_FROM); absent, nothing is ever sent and the back end says so. */
  mail?: MailSettings;
  /** Where people reach the collector (PUBLIC_URL): every link it mails or shows (invitations, resets,
   * alerts, summaries, unsubscribe, recordings, shared links, the install tag) starts with it, never
   * with a request's Host. */
  publicUrl?: string;
  /** Where this process listens (`http://HOST:PORT`): the links' base without PUBLIC_URL (development). */
  listenUrl?: string;
  /** How often alerts are looked for, and how long a person's immediate ones gather (tests shorten them). */
  alertTimings?: { everyMs?: number; gatherMs?: number; /** How often warnings are looked for (a minute). */ warningsEveryMs?: number };
  /** The speech-to-text engine (TRANSCRIBE_URL, or the bundled one main.ts started); absent: no transcripts. */
  transcribe?: EngineSettings;
  /** The owner's language model (ANALYZE_*); absent: no call is analysed (issue 66). */
  analyze?: AnalyzeSettings & { concurrency?: number; maxChars?: number };
}

export interface CollectorApp {
  app: Koa;
  /** Every route the app serves, `GET /domains/:domain` style: the OpenAPI test compares them with the document. */
  routes: { method: string; path: string }[];
  collections: AllCollections;
  /** Stops the delivery worker (after its attempts under way); the caller closes the HTTP server first. */
  stop(): Promise<void>;
}

export function createApp(options: AppOptions): CollectorApp {
  const { db, log, proxyHops = 0, browserLimits = DEFAULT_BROWSER_LIMITS, demoPages = false } = options;
  // Only the last `proxyHops` entries of X-Forwarded-For are the proxies' own: the ones before them are
  // whatever the client wrote, and `ctx.ip` is the first of those kept.
  const app = new Koa({ proxy: proxyHops > 0, maxIpsCount: proxyHops });
  const c = allCollections(db);
  const ids = new IdAllocator(c.counters);
  const domains = new DomainCache(c, options.domainCacheMs);
  const outbox = new Outbox(c);
  const liveCalls = new LiveCalls(c);
  const push = new LivePush(c, outbox, liveCalls);
  const traffic = new TrafficBuffer(c, log);
  traffic.start();
  const tracking = new TrackingService(c, ids, (domain, view) => push.viewAdded(domain, view), new TrafficDays(c, traffic));
  const ga4Endpoint = options.ga4Endpoint ?? DEFAULT_GA4_ENDPOINT;
  const publicUrl = (options.publicUrl ?? options.listenUrl ?? DEFAULT_PUBLIC_URL).replace(/\/$/, '');
  const { writes: callWrites, transcripts, forms: formWrites, rules: ruleRunner } = wireWrites(c, { ga4Endpoint, alerts: Boolean(options.mail), publicUrl, transcribe: Boolean(options.transcribe), analyze: Boolean(options.analyze) });
  const people = new People(c, ids, callWrites);
  const box = options.secretsKey ? new SecretBox(options.secretsKey) : null;
  const carriers = new CarrierConnections(c, box, options.twilioApiBase ?? DEFAULT_TWILIO_API_BASE);
  // Where the account's calls and texts may go, and how many an hour (issue 79): one check for every number dialled or texted.
  const dialling = new DiallingPolicies(c);
  const metrics = new Metrics(c, db);
  const texting = wireTexting(c, { personOf: (domainId, phone, at) => people.join(domainId, { phone }, at), carrierOf: (accountId) => carriers.carrierOf(accountId), publicUrl, counted: (direction, result) => metrics.texts.inc({ direction, result }), alerts: options.mail ? new CallAlerts(c) : null, received: ({ conversation, message }) => textToRules(ruleRunner, conversation, message), dialling }, log);
  const telephony = new TelephonyService(c, ids, new CallRouter(c, new NumberPool(c)), (callId) => liveCalls.end(callId), callWrites, people, texting.onText);
  const prompts = new PromptAudio(db, c.callFlows, log);
  const flowRunner = new FlowRunner(c, log, prompts);
  const agents = new AgentService(c, liveCalls);
  const commerce = new CommerceService(c, ids, push, outbox, ga4Endpoint);
  const { run = true, ...delivery } = options.delivery ?? {};
  const deliveryOptions = { ...DEFAULT_DELIVERY, ...(options.analyze?.concurrency ? { analyzeConcurrency: options.analyze.concurrency } : {}), ...delivery };
  const mailer = options.mail ? new Mailer(options.mail) : undefined;
  const recordingStore = new RecordingStore(db);
  const recordingStates = new RecordingStates(callWrites);
  const adsClients = new PlatformClients({ ...DEFAULT_ADS_ENDPOINTS, ...options.adsEndpoints });
  const connectedDomains = new ConnectedDomains(c);
  const adsConnections = new AdsConnections(c, box, adsClients, () => connectedDomains.changed());
  const crmConnections = new CrmConnections(c, box, crmClients({ hubspot: options.hubspotApiBase ?? DEFAULT_CRM_HOSTS.hubspot, salesforceLogin: options.salesforceLoginUrl ?? null }));
  const recordings = new RecordingFetcher(c, recordingStore, recordingStates, outbox, {
    publicOnly: deliveryOptions.publicOnly,
    twilioCredentialsFor: (accountSid) => carriers.basicAuthFor(accountSid),
    ...(options.twilio?.authToken ? { twilioAuthToken: options.twilio.authToken } : {}),
  });
  const engine = options.transcribe ? new EngineClient(options.transcribe) : null;
  const transcriber = new Transcriber(c, engine, recordingStore, transcripts, outbox, (result, seconds) => {
    metrics.transcripts.inc({ result });
    metrics.transcribedSeconds.inc(seconds);
  });
  const model = options.analyze ? new ModelClient(options.analyze) : null;
  const analyzer = new Analyzer(c, model, callWrites, options.analyze?.maxChars, (result) => metrics.analyses.inc({ result }));
  const ruleRuns = new RuleRuns(c, callWrites, formWrites, outbox);
  const crmSync = new CrmSync(c, crmPersonRefs(c), crmConnections, { calls: callWrites, forms: formWrites }, publicUrl, (crm, result) => metrics.crmSync.inc({ crm, result }));
  const adsSender = new AdsSender(c, adsConnections, adsClients, outbox, leadMarks({ calls: () => callWrites, forms: () => formWrites }), (platform, result) => metrics.adsConversions.inc({ platform, result }), options.adsStatusAfterMs);
  const worker = new DeliveryWorker(
    c,
    outbox,
    log,
    deliveryOptions,
    (message, outcome, error) => {
      metrics.deliveries.inc({ kind: message.kind, outcome });
      if (message.kind === 'mail') metrics.mailSent.inc({ kind: message.label, result: outcome });
      if (message.kind === 'recording' && message.label !== CARRIER_DELETE && outcome === 'abandoned') void recordings.failed((JSON.parse(message.body) as RecordingJob).callId, error ?? 'given up').catch((err) => log.error({ err }, 'marking a recording as failed did not work'));
      if (message.kind === 'text' && outcome === 'abandoned') void textBackGivenUp(c, message, error ?? 'given up').catch((err) => log.error({ err }, 'marking a text back as failed did not work'));
      if (message.kind === 'crm' && outcome === 'abandoned') void crmSync.failed(JSON.parse(message.body) as CrmJob, error ?? 'given up').catch((err) => log.error({ err }, 'marking a CRM delivery as failed did not work'));
      if (message.kind === 'analysis' && outcome === 'abandoned') void analyzer.failed((JSON.parse(message.body) as { callId: number }).callId, error ?? 'given up').catch((err) => log.error({ err }, 'marking an analysis as failed did not work'));
      if (message.kind === 'transcript' && message.label !== RESPOT_JOB && outcome === 'abandoned') void transcriber.failed((JSON.parse(message.body) as { callId: number }).callId, error ?? 'given up').catch((err) => log.error({ err }, 'marking a transcript as failed did not work'));
    },
    { mailer, recordings, transcripts: transcriber, analyses: analyzer, rules: ruleRuns, ads: adsSender, crm: crmSync, texts: new TextBackSender(c, texting.sender), ruleAddress: ruleMailAddress(c) },
  );
  if (run) {
    worker.start();
    void commerce.requeueLostEvents().catch((err) => log.error({ err }, 'requeueing lost analytics events failed'));
    // A SECRETS_KEY changed since the ad platforms' credentials were sealed: their cards say broken now.
    void adsConnections.markUnreadable().catch((err) => log.error({ err }, 'checking the ad platforms\' credentials failed'));
  }
  // Call alerts are mailed only where mail is configured (call-writes.ts raises them only then).
  const recordingIntake = new Recordings(c, outbox, recordingStore, recordingStates);
  const retention = new RecordingRetention(c, recordingStore, recordingStates, log);
  if (run) retention.start();
  if (run) prompts.start();
  const mailing = options.mail ? new Mailing(c, outbox, publicUrl) : null;
  const alertMailer = mailing && new AlertMailer(mailing, log, { ...options.alertTimings, transcribing: Boolean(options.transcribe) });
  const summaries = mailing && new SummarySender(mailing, log);
  const warnings = mailing && new WarningWatch(mailing, log);
  if (run) {
    alertMailer?.start();
    summaries?.start();
    warnings?.start(options.alertTimings?.warningsEveryMs);
  }
  const sampler = new PoolSampler(c, log);
  if (run) sampler.start(options.poolSampleMs);
  const offline = new OfflineNumbers(c);
  // Once a day, the numbers wired through a carrier are checked to still send their calls here.
  const numberCheck = new NumberCheck(c, carriers, publicUrl, log);
  if (run) numberCheck.start();
  app.silent = true; // errors are answered and logged by each family's envelope
  const stallWatch = new DatabaseStallWatch(db.client, log);
  app.use(requestLog(log));
  app.use(async (ctx, next) => {
    ctx.state.stallWatch = stallWatch;
    // Every answer is what its Content-Type says: no browser sniffs a JSON or text answer into a page (issue 70).
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(measureRequests(metrics));
  app.use(refuseUnknownMethods);
  app.use(manageNotFound);
  const browserLimit = new BrowserRateLimit(c, browserLimits);
  const signInLimit = new SignInLimit(c, options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS);
  const routers = [
    healthRoutes(db),
    homeRoutes({ demoPages }),
    trackingRoutes(domains, tracking, log),
    browserRoutes(c, domains, tracking, browserLimit, log, (domainId) => connectedDomains.has(domainId)),
    formRoutes(c, domains, new FormSubmissions(c, ids, people, ga4Endpoint, formWrites), browserLimit, log),
    trackerScriptRoutes(trackerBundlePath, formsBundlePath, adsBundlePath),
    offlineRoutes(c, domains, offline, log),
    telephonyRoutes(telephony, new DialledNumbers(c), options.telephonyApiKey, recordingIntake, log, pbxFlows(telephony, new DialledNumbers(c), flowRunner)),
    dataRoutes(domains, new DataService(c), log, { ...(options.dataPagesAtOnce ? { pagesAtOnce: options.dataPagesAtOnce } : {}), publicUrl, recordings: recordingStore }),
    promptRoutes(prompts),
    new ListenLinks(c, publicUrl).routes(recordingStore),
    twilioRoutes(telephony, recordingIntake, { ...options.twilio, signerFor: (accountSid, called) => carriers.signerFor(accountSid, called) }, log, twilioFlows(telephony, flowRunner, log), [texting.twilioCallbacks, twilioOutbound(c, callWrites)]),
    commerceRoutes(domains, commerce, log),
    agentRoutes(c, agents, log),
    manageRoutes(c, signInLimit, { outbox, agents, offline, callWrites, formWrites, domains, traffic, recordings: { store: recordingStore, states: recordingStates }, carriers, people, engine, model, ruleRuns, prompts, ads: { connections: adsConnections, clients: adsClients }, crm: crmConnections, texting, clickToCall: new ClickToCall(c, ids, callWrites, (accountId) => carriers.carrierOf(accountId), publicUrl, dialling) }, { signUp: options.signUp ?? true, publicWebhooksOnly: deliveryOptions.publicOnly, mail: options.mail ? { from: options.mail.from } : {}, publicUrl, softphone: options.softphone ?? null }, log),
    managePageRoutes(),
    sharedPageRoutes(c, signInLimit, log),
    unsubscribeRoutes(c, publicUrl),
    openApiRoutes({ demoPages }),
    metricsRoutes(metrics, options.metricsKey),
    ...(demoPages ? [demoRoutes()] : []),
  ];
  for (const router of routers) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  const routes = routers.flatMap((router) => router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) }))));
  return {
    app,
    routes,
    collections: c,
    stop: () => {
      sampler.stop();
      stallWatch.stop();
      metrics.close();
      return Promise.all([alertMailer?.stop(), summaries?.stop(), warnings?.stop(), retention.stop(), prompts.stop(), numberCheck.stop(), worker.stop(), traffic.stop()]).then(() => mailer?.close());
    },
  };
}
