// Every family's collections under one name each, for the places that wire the whole house: the app
// (app.ts), the start (main.ts), the release upgrade (migrations.ts) and the command-line tools. A
// service never takes this: it receives its own family's handles, and another family's by name.
import type { Db } from 'mongodb';
import { createIndexes } from '../db/collections.ts';
import { idCollections, type IdCollections } from '../db/documents.ts';
import { adsCollections, adsIndexes, type AdsCollections } from '../ads/documents.ts';
import { crmCollections, crmIndexes, type CrmCollections } from '../crm/documents.ts';
import { textingCollections, textingIndexes, type TextingCollections } from '../texting/documents.ts';
import { agentCollections, agentIndexes, type AgentCollections } from '../agent/documents.ts';
import { alertCollections, alertIndexes, type AlertCollections } from '../alerts/documents.ts';
import { commerceCollections, commerceIndexes, type CommerceCollections } from '../commerce/documents.ts';
import { dataCollections, type DataCollections } from '../data/documents.ts';
import { domainCollections, domainIndexes, type DomainCollections } from '../domains/documents.ts';
import { flowCollections, flowIndexes, type FlowCollections } from '../flows/documents.ts';
import { formCollections, formIndexes, type FormCollections } from '../forms/documents.ts';
import { rateLimitCollections, rateLimitIndexes, type RateLimitCollections } from '../http/documents.ts';
import { offlineCollections, offlineIndexes, type OfflineCollections } from '../offline/documents.ts';
import { peopleCollections, peopleIndexes, type PeopleCollections } from '../people/documents.ts';
import { reportCollections, type ReportCollections } from '../reports/documents.ts';
import { ruleCollections, ruleIndexes, type RuleCollections } from '../rules/documents.ts';
import { teamCollections, teamIndexes, type TeamCollections } from '../team/documents.ts';
import { telephonyCollections, telephonyIndexes, type TelephonyCollections } from '../telephony/documents.ts';
import { trackingCollections, trackingIndexes, type TrackingCollections } from '../tracking/documents.ts';
import { transcriptCollections, transcriptIndexes, type TranscriptCollections } from '../transcripts/documents.ts';
import { webhookCollections, webhookIndexes, type WebhookCollections } from '../webhooks/documents.ts';

export type AllCollections = IdCollections &
  TeamCollections &
  DomainCollections &
  TrackingCollections &
  OfflineCollections &
  TelephonyCollections &
  DataCollections &
  ReportCollections &
  FormCollections &
  PeopleCollections &
  CommerceCollections &
  AgentCollections &
  WebhookCollections &
  RateLimitCollections &
  AlertCollections &
  TranscriptCollections &
  RuleCollections &
  AdsCollections &
  FlowCollections &
  CrmCollections &
  TextingCollections;

export function allCollections(db: Db): AllCollections {
  return {
    ...idCollections(db),
    ...teamCollections(db),
    ...domainCollections(db),
    ...trackingCollections(db),
    ...offlineCollections(db),
    ...telephonyCollections(db),
    ...dataCollections(db),
    ...reportCollections(db),
    ...formCollections(db),
    ...peopleCollections(db),
    ...commerceCollections(db),
    ...agentCollections(db),
    ...webhookCollections(db),
    ...rateLimitCollections(db),
    ...alertCollections(db),
    ...transcriptCollections(db),
    ...ruleCollections(db),
    ...adsCollections(db),
    ...flowCollections(db),
    ...crmCollections(db),
    ...textingCollections(db),
  };
}

const INDEX_PLANS = [peopleIndexes, formIndexes, teamIndexes, domainIndexes, trackingIndexes, offlineIndexes, telephonyIndexes, commerceIndexes, agentIndexes, webhookIndexes, rateLimitIndexes, alertIndexes, transcriptIndexes, ruleIndexes, adsIndexes, flowIndexes, crmIndexes, textingIndexes];

/** Every family's indexes; idempotent, run at every start. Every query of a request's path goes through one of these. */
export async function ensureIndexes(c: AllCollections): Promise<void> {
  await Promise.all(INDEX_PLANS.map((plan) => createIndexes(c, plan)));
}
