// The unsubscribe links' pages (/mail/unsubscribe/<token>), for anyone who has the link, without
// signing in: GET asks to confirm (a link scanner's visit changes nothing), POST turns the choice
// off, as the mail's one-click List-Unsubscribe-Post does (RFC 8058). A forged, used or expired
// link gets a page that says which, never an error.
import Router from '@koa/router';
import type { Context } from 'koa';
import { escapeHtml } from '../mail/layout.ts';
import { choiceName, UnsubscribeLinks, type Unsubscribed } from './unsubscribe.ts';
import { UNSUBSCRIBE_DAYS, type AlertCollections } from './documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import type { RuleCollections } from '../rules/documents.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { RateLimitCollections } from '../http/documents.ts';

export function unsubscribeRoutes(c: AlertCollections & TeamCollections & RuleCollections & DomainCollections & RateLimitCollections, publicUrl: string): Router {
  const links = new UnsubscribeLinks(c, publicUrl);
  const router = new Router({ prefix: '/mail/unsubscribe' });

  router.get('/:token', async (ctx) => {
    const token = await links.find(ctx.params.token!);
    if (!token) return page(ctx, 404, 'This link does not work', invalidText);
    const what = `${choiceName(token)} for ${token.domainId}`;
    if (token.usedAt) return page(ctx, 200, 'Already unsubscribed', `This link has been used: ${escapeHtml(token.username)} no longer receives ${escapeHtml(what)}.`);
    page(ctx, 200, 'Unsubscribe', `Stop sending ${escapeHtml(what)} to ${escapeHtml(token.username)}? Nothing else changes.<form method="post"><button type="submit" style="margin-top:12px;padding:8px 14px">Unsubscribe</button></form>`);
  });

  router.post('/:token', async (ctx) => {
    const result: Unsubscribed = await links.use(ctx.params.token!);
    if (result.state === 'invalid') return page(ctx, 404, 'This link does not work', invalidText);
    const what = `${choiceName(result.token)} for ${result.token.domainId}`;
    if (result.state === 'used') return page(ctx, 200, 'Already unsubscribed', `This link has been used: ${escapeHtml(result.token.username)} no longer receives ${escapeHtml(what)}.`);
    // A rule's link stops every rule of the account (rule-mails.ts), one made later included.
    const rules = result.token.choice.startsWith('rule:') ? ', nor any other rule mail of this account' : '';
    page(ctx, 200, 'Unsubscribed', `${escapeHtml(result.token.username)} will no longer receive ${escapeHtml(what)}${rules}. Your other choices are in RingTrail, under Profile.`);
  });
  return router;
}

const invalidText = `It was changed, or is older than ${UNSUBSCRIBE_DAYS} days. Your choices of alerts are in RingTrail, under Profile.`;

function page(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('X-Robots-Tag', 'noindex');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1><p>${body}</p></body></html>`;
}
