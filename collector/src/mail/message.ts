// A mail as the outbox keeps it until it is sent (webhooks/delivery-worker.ts hands it to mailer.ts):
// its recipient, subject, a plain-text and an HTML part, and its headers (List-Unsubscribe).
import { randomUUID } from 'node:crypto';
import type { OutboxAbout, OutboxMessage } from '../webhooks/documents.ts';

/** What a person receives: the test e-mail, an invitation or a password reset link, an alert about calls, a warning, a summary, a rule's mail. */
export const MAIL_KINDS = ['test', 'invitation', 'password-reset', 'missed-call', 'new-lead', 'first-caller', 'spam-blocked', 'new-text', 'warning', 'summary', 'rule'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export interface MailBody {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** The RFC 8058 headers of a message one can leave with one click. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The outbox message of a mail; a fixed `id` makes queuing it twice send it once. `personIds`: the
 * people it speaks of, whose erase erases it; `about`: the calls and forms it tells of. */
export function mailMessage(accountId: string, kind: MailKind, body: MailBody, id = `mail_${randomUUID()}`, personIds: number[] = [], about?: OutboxAbout): OutboxMessage & { id: string } {
  return { id, accountId, stream: `mail:${id}`, kind: 'mail', label: kind, url: `mailto:${body.to}`, contentType: 'application/json', body: JSON.stringify(body), signed: false, ...(personIds.length ? { personIds } : {}), ...(about ? { about } : {}) };
}
