// The back end's account settings: the webhook URL, its signing secret, the call-center key, and
// the delivery log with "send again". Knows nothing of HTTP.
import { randomBytes } from 'node:crypto';
import type { AccountDoc, TeamCollections } from '../team/documents.ts';
import { LOGGED_KINDS, WEBHOOK_CONTENT_TYPE, type DeliveryLogDoc, type WebhookCollections } from '../webhooks/documents.ts';
import { hashKey, newKey } from '../domains/keys.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { privateAddressOf } from '../webhooks/public-address.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export async function accountOf(c: TeamCollections, accountId: string): Promise<AccountDoc> {
  return (await c.accounts.findOne({ _id: accountId }))!;
}

/**
 * A URL without a secret could not be signed: the first URL makes the secret too, answered once.
 * `publicOnly` (ALLOW_PRIVATE_WEBHOOKS off): a URL whose host is, or resolves to, a loopback or
 * private address is refused now, not only at delivery.
 */
export async function setWebhookUrl(c: TeamCollections, account: AccountDoc, url: string | null, { publicOnly }: { publicOnly: boolean }): Promise<{ secret: string | null }> {
  if (url === null) {
    await c.accounts.updateOne({ _id: account._id }, { $unset: { webhookUrl: '' } });
    return { secret: null };
  }
  const host = new URL(url).hostname;
  const privateAddress = publicOnly ? await privateAddressOf(host) : null;
  if (privateAddress) throw new ManageFailure(400, `url: ${host} is ${privateAddress}, a private address: webhooks go to public addresses only (ALLOW_PRIVATE_WEBHOOKS)`);
  const secret = account.webhookSecret ? null : newWebhookSecret();
  await c.accounts.updateOne({ _id: account._id }, { $set: { webhookUrl: url, ...(secret ? { webhookSecret: secret } : {}) } });
  return { secret };
}

/** Standard Webhooks' secret format: `whsec_` and 24 random bytes in base64. */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** A new signing secret, answered once; pushes signed from now on use it. */
export async function rotateWebhookSecret(c: TeamCollections, account: AccountDoc): Promise<string> {
  const secret = newWebhookSecret();
  await c.accounts.updateOne({ _id: account._id }, { $set: { webhookSecret: secret } });
  return secret;
}

export async function rotateCallCenterKey(c: TeamCollections, account: AccountDoc): Promise<string> {
  const key = newKey('call_center');
  await c.accounts.updateOne({ _id: account._id }, { $set: { callCenterApiKeyHash: hashKey(key) } });
  return key;
}

/** The account's webhook and analytics attempts (its mails are its people's own: GET /manage/api/mail). */
export async function deliveries(c: WebhookCollections, account: AccountDoc, limit: number): Promise<DeliveryLogDoc[]> {
  return c.deliveryLog.find({ accountId: account._id, kind: { $in: LOGGED_KINDS } }).sort({ at: -1, attempt: -1 }).limit(limit).toArray();
}

/** Queues the body of a logged attempt again, to the account's webhook URL of now, as a new message
 * of its own stream (a resend waits for nothing and holds nothing up). */
export async function resend(c: WebhookCollections, outbox: Outbox, account: AccountDoc, attemptId: string): Promise<string> {
  const attempt = await c.deliveryLog.findOne({ _id: attemptId, accountId: account._id, kind: { $in: LOGGED_KINDS } });
  if (!attempt) throw new ManageFailure(404, 'No such delivery');
  if (attempt.kind !== 'webhook') throw new ManageFailure(409, 'Only webhook pushes are sent again');
  if (!account.webhookUrl) throw new ManageFailure(409, 'The account has no webhook URL');
  return outbox.enqueue({ accountId: account._id, stream: `resend:${attempt.messageId}`, kind: 'webhook', label: attempt.label, url: account.webhookUrl, contentType: WEBHOOK_CONTENT_TYPE, body: attempt.body, signed: true });
}

/** A push of our own type `test` (callId 0, nothing else), signed like every push, so the call
 * center can check its receiver and its signature check before a real call comes. */
export async function sendTestPush(outbox: Outbox, account: AccountDoc): Promise<string> {
  if (!account.webhookUrl) throw new ManageFailure(409, 'The account has no webhook URL');
  const realtimeData = JSON.stringify({ callId: 0, type: 'test', view: null, cart: null, order: null });
  return outbox.enqueue({ accountId: account._id, stream: 'test', kind: 'webhook', label: 'test', url: account.webhookUrl, contentType: WEBHOOK_CONTENT_TYPE, body: new URLSearchParams({ realtimeData }).toString(), signed: true });
}
