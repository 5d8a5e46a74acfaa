// The mail of an invitation or a password reset link, when mail is configured: the link the back end
// also shows the owner to copy, sent to the person it is for. Not a subscription: no unsubscribe link.
import { html, mailPage } from '../mail/layout.ts';
import { mailMessage } from '../mail/message.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export interface LinkMail {
  kind: 'invitation' | 'password-reset';
  accountId: string;
  to: string;
  url: string;
  expiresAt: Date;
  /** Who invited them, for an invitation. */
  by?: string;
}

export async function sendLinkMail(outbox: Outbox, { kind, accountId, to, url, expiresAt, by }: LinkMail): Promise<void> {
  const invitation = kind === 'invitation';
  const hours = Math.round((expiresAt.getTime() - Date.now()) / 3_600_000);
  const subject = invitation ? `You are invited to ${accountId} on RingTrail` : 'Choose a new RingTrail password';
  const intro = invitation ? `${by ?? 'Someone'} invites you to ${accountId}'s call tracking on RingTrail. Open the link to choose your password.` : `Someone (you, we hope) asked for a new password for ${to} on RingTrail. Open the link to choose one; if it was not you, ignore this mail: your password stays as it is.`;
  const validity = `The link works once, for ${hours > 24 ? `${Math.round(hours / 24)} days` : hours > 1 ? `${hours} hours` : 'an hour'}.`;
  const text = `${intro}\n\n${url}\n\n${validity}\n`;
  const page = mailPage({
    heading: invitation ? `Join ${accountId} on RingTrail` : 'A new password',
    body: html`<p style="margin:0 0 12px">${intro}</p><p style="margin:0">${validity}</p>`,
    link: { url, label: invitation ? 'Choose my password' : 'Choose a new password' },
    footer: invitation ? `You receive this because ${by ?? 'a member'} invited ${to}.` : `You receive this because a new password was asked for ${to}.`,
  });
  await outbox.enqueue(mailMessage(accountId, kind, { to, subject, text, html: page, headers: {} }));
}
