// HTTP in for the management API (/manage/api): the session routes, the account's members and
// activity, the settings and reports. Every route names who may call it (team/access.ts, team/roles.ts);
// every state-changing request of a session carries its CSRF token in `X-CSRF-Token`; the cookie
// is HttpOnly, SameSite=Lax.
import type { SipEdge } from '../softphone/sip-credentials.ts';
import { softphoneRoutes } from './softphone-routes.ts';
import { ruleRoutes } from './rule-routes.ts';
import { flowRoutes } from './flow-routes.ts';
import { analysisRoutes } from './analysis-routes.ts';
import { crmRoutes } from './crm-routes.ts';
import { CrmConnections } from '../crm/connections.ts';
import { crmClients, DEFAULT_CRM_HOSTS } from '../crm/clients.ts';
import type { TextingCollections } from '../texting/documents.ts';
import { wireTexting, type Texting } from '../texting/texting.ts';
import { textingRoutes } from './texting-routes.ts';
import { usTextingRoutes } from './us-texting-routes.ts';
import { callBackRoutes } from './call-back-routes.ts';
import type { ClickToCall } from '../outbound/click-to-call.ts';
import { diallingRoutes } from './dialling-routes.ts';
import type { FlowCollections } from '../flows/documents.ts';
import type { CrmCollections } from '../crm/documents.ts';
import type { PromptAudio } from '../flows/prompt-audio.ts';
import type { RuleCollections } from '../rules/documents.ts';
import type { RuleRuns } from '../rules/rule-runs.ts';
import Router from '@koa/router';
import type { AgentService } from '../agent/service.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { EngineClient } from '../transcripts/engine-client.ts';
import type { ModelClient } from '../analysis/model-client.ts';
import { transcriptRoutes } from './transcript-routes.ts';
import type { OfflineNumbers } from '../offline/service.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import type { TrafficBuffer } from '../reports/traffic-buffer.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { manageEnvelope } from '../http/manage-envelope.ts';
import type { Logger } from '../logger.ts';
import { guards } from '../team/access.ts';
import { AuditLog } from '../team/audit.ts';
import { Sessions } from '../team/sessions.ts';
import type { SignInLimit } from '../team/sign-in-limit.ts';
import { reportRoutes } from './report-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { blocklistRoutes } from './blocklist-routes.ts';
import { verdictRoutes } from './verdict-routes.ts';
import { sessionRoutes } from './session-routes.ts';
import { memberRoutes } from './member-routes.ts';
import { sharedLinkRoutes } from './shared-link-routes.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { RecordingStates } from '../recordings/states.ts';
import { CarrierConnections } from '../carriers/connections.ts';
import { DEFAULT_TWILIO_API_BASE } from '../carriers/twilio-client.ts';
import type { AdsCollections } from '../ads/documents.ts';
import { carrierRoutes } from './carrier-routes.ts';
import { adsRoutes } from './ads-routes.ts';
import { AdsConnections } from '../ads/connections.ts';
import { PlatformClients } from '../ads/platform-clients.ts';
import { peopleRoutes } from './people-routes.ts';
import type { FormWrites } from '../forms/form-writes.ts';
import { formsRoutes } from './forms-routes.ts';
import { People } from '../people/people.ts';
import { IdAllocator } from '../db/ids.ts';
import type { RecordingStore } from '../recordings/store.ts';
import { mailRoutes, type MailOptions } from './mail-routes.ts';
import { alertRoutes } from './alert-routes.ts';
import type { IdCollections } from '../db/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { FormCollections } from '../forms/documents.ts';
import type { PeopleCollections } from '../people/documents.ts';
import type { WebhookCollections } from '../webhooks/documents.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import type { TrackingCollections } from '../tracking/documents.ts';
import type { OfflineCollections } from '../offline/documents.ts';
import type { ReportCollections } from '../reports/documents.ts';
import type { CommerceCollections } from '../commerce/documents.ts';
import type { AlertCollections } from '../alerts/documents.ts';
import type { DataCollections } from '../data/documents.ts';

export interface ManageOptions {
  /** The sign-up page and its route: on in development, a setting in production. */
  signUp: boolean;
  /** Refuse webhook URLs of loopback and private addresses (ALLOW_PRIVATE_WEBHOOKS off). */
  publicWebhooksOnly: boolean;
  /** Mail: configured or not. */
  mail: MailOptions;
  /** Where people reach the collector (PUBLIC_URL, or where it listens): every link the back end
   * shows or mails starts with it, never with a request's Host. */
  publicUrl: string;
  /** The SIP edge of members' softphones (issue 82); null or absent: none. */
  softphone?: SipEdge | null;
}

export interface ManageServices {
  outbox: Outbox;
  agents: AgentService;
  offline: OfflineNumbers;
  /** The app's call writes (house/writes.ts: their GA4 endpoint, their alerts). */
  callWrites: CallWrites;
  /** The app's form writes (house/writes.ts: their alerts). */
  formWrites: FormWrites;
  /** The domains the other doors found by their keys: a change made here clears them at once. */
  domains?: DomainCache;
  /** The traffic counters this process has summed and not written yet: written before a read. */
  traffic?: TrafficBuffer;
  /** The domains' people (issue 43): contacts joined by phone, e-mail or visitor; absent: a reader of them. */
  people?: People;
  /** The accounts' carrier accounts (issue 42); absent: none can be connected (no SECRETS_KEY). */
  carriers?: CarrierConnections;
  /** Where calls' recordings are kept (GridFS), and their states on the calls. */
  recordings?: { store: RecordingStore; states: RecordingStates };
  /** The speech-to-text engine (TRANSCRIBE_URL); absent: none is configured. */
  engine?: EngineClient | null;
  /** The owner's language model (ANALYZE_URL); absent: none is configured. */
  model?: ModelClient | null;
  /** Rules applied to past calls, and undone (rules/rule-runs.ts); absent: made here. */
  ruleRuns?: RuleRuns;
  /** The call flows' recorded prompts (GridFS); absent: none can be uploaded. */
  prompts?: PromptAudio;
  /** The ad platforms' connections and clients (ads/, issue 56). */
  ads?: { connections: AdsConnections; clients: PlatformClients };
  /** The domains' CRM connections (crm/); absent: none can be made (no SECRETS_KEY to seal them). */
  crm?: CrmConnections;
  /** The domains' texting inboxes (texting/); absent: read only, nothing can be sent. */
  texting?: Texting;
  /** Calls placed from the back end (outbound/); absent: none can be. */
  clickToCall?: ClickToCall;
}

export function manageRoutes(c: TeamCollections & DomainCollections & TrackingCollections & OfflineCollections & TelephonyCollections & DataCollections & ReportCollections & FormCollections & PeopleCollections & IdCollections & CommerceCollections & WebhookCollections & RateLimitCollections & AlertCollections & TranscriptCollections & RuleCollections & AdsCollections & FlowCollections & CrmCollections & TextingCollections, limit: SignInLimit, services: ManageServices, options: ManageOptions, log: Logger): Router {
  const sessions = new Sessions(c);
  const can = guards(c, sessions, new AuditLog(c));
  const router = new Router({ prefix: '/manage/api' });
  router.use(manageEnvelope(log));
  // An account's own data, its new keys and secrets among them: never kept by a cache on the way.
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    // The reports include every view this process has taken (none of its last second left out).
    if (ctx.method === 'GET') await services.traffic?.flush().catch(() => undefined); // logged; the report shows what is stored
    await next();
    // A key rotated or a setting saved takes effect in this process's doors at once (in the
    // others within their cache's bound).
    if (ctx.method !== 'GET') services.domains?.clear();
  });

  // Mail goes out only where it is configured: invitation and reset links are then mailed too.
  const mailOutbox = options.mail.from ? services.outbox : null;
  sessionRoutes(router, c, sessions, limit, can, { ...options, outbox: mailOutbox, log });
  memberRoutes(router, c, can, mailOutbox, options.publicUrl);
  settingsRoutes(router, c, services.outbox, services.offline, can, options);
  sharedLinkRoutes(router, c, can, options.publicUrl);
  mailRoutes(router, c, services.outbox, can, options.mail, options.publicUrl);
  alertRoutes(router, c, can, Boolean(options.mail.from));
  blocklistRoutes(router, c, can);
  verdictRoutes(router, c, can, services.callWrites);
  reportRoutes(router, c, services.agents, can, services.recordings);
  transcriptRoutes(router, c, can, services.engine ?? null);
  formsRoutes(router, c, can, services.formWrites);
  ruleRoutes(router, c, can, services.callWrites, services.formWrites, { publicOnly: options.publicWebhooksOnly, ...(services.ruleRuns ? { runs: services.ruleRuns } : {}) });
  const { callWrites } = services;
  peopleRoutes(router, c, can, services.people ?? new People(c, new IdAllocator(c.counters), callWrites), callWrites, services.recordings ?? null);
  const carriers = services.carriers ?? new CarrierConnections(c, null, DEFAULT_TWILIO_API_BASE);
  carrierRoutes(router, c, can, carriers, options.publicUrl);
  const clients = services.ads?.clients ?? new PlatformClients();
  adsRoutes(router, c, can, services.ads?.connections ?? new AdsConnections(c, null, clients), clients);
  flowRoutes(router, c, can, services.prompts ?? null);
  analysisRoutes(router, c, can, callWrites, services.model ?? null);
  crmRoutes(router, c, can, services.crm ?? new CrmConnections(c, null, crmClients(DEFAULT_CRM_HOSTS)), services.outbox, options.publicUrl ?? '');
  const texting = services.texting ?? wireTexting(c, { personOf: async () => null, carrierOf: async () => null, publicUrl: options.publicUrl ?? '' }, log);
  textingRoutes(router, c, can, texting.conversations, texting.sender, carriers);
  usTextingRoutes(router, c, can, carriers);
  callBackRoutes(router, c, can, services.clickToCall ?? null);
  diallingRoutes(router, c, can);
  softphoneRoutes(router, can, options.softphone ?? null);
  return router;
}
