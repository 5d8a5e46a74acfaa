// Who may call a route of the management API, checked on the server for every one: the session
// (401 without), its CSRF token on every change (403), the member's role against the route's rule
// (403, naming what is missing), and, once the route has done its work, the audit entry of the
// change. A route names its rule with `can(rule, action)`; a domain outside the member's answers
// 404 like another account's (settings-routes.ts, domainOf).
import type { Context, Middleware, Next } from 'koa';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { AuditLog } from './audit.ts';
import type { SessionDoc, UserDoc, TeamCollections } from './documents.ts';
import { whoMay, type Rule } from './roles.ts';
import { SESSION_COOKIE, Sessions } from './sessions.ts';

/** A route's guard: its rule, and the audit action of a change (`<kind>.<verb>`). */
export type Can = (rule: Rule, action?: string) => Middleware & { rule: Rule; action?: string };

/** What a guarded route's handler finds in `ctx.state`. */
export interface SignedIn {
  session: SessionDoc;
  member: UserDoc;
  /** Set by the handler: the domain and details the audit entry names, and its action when the
   * route's own depends on what was done. */
  auditDomain?: string;
  auditAction?: string;
  auditDetails?: Record<string, unknown>;
}

export const memberOf = (ctx: Context) => (ctx.state as SignedIn).member;

/** The audit entry's domain and details, told by the handler that knows them. */
export function auditing(ctx: Context, details: Record<string, unknown>): void {
  (ctx.state as SignedIn).auditDetails = { ...(ctx.state as SignedIn).auditDetails, ...details };
}

export function guards(c: TeamCollections, sessions: Sessions, audit: AuditLog): Can {
  return (rule, action) => {
    const guard = async (ctx: Context, next: Next) => {
      if (rule.roles !== null) await admit(c, sessions, ctx, rule, rule.roles);
      await next();
      const state = ctx.state as Partial<SignedIn>;
      const done = state.auditAction ?? action;
      // A route open to anyone that signs a member in (an invitation accepted) names them itself.
      if (done && state.member && ctx.status < 400) {
        await audit.write({ accountId: state.member.accountId, username: state.member._id, ip: ctx.ip, action: done, ...(state.auditDomain ? { domain: state.auditDomain } : {}), ...(state.auditDetails ? { details: state.auditDetails } : {}) });
      }
    };
    return Object.assign(guard, { rule, ...(action ? { action } : {}) });
  };
}

async function admit(c: TeamCollections, sessions: Sessions, ctx: Context, rule: Rule, roles: NonNullable<Rule['roles']>): Promise<void> {
  const session = await sessions.of(ctx.cookies.get(SESSION_COOKIE));
  if (!session) throw new ManageFailure(401, 'Not signed in');
  // The member as stored now: a member removed, or of another account since, is signed out.
  const member = await c.users.findOne({ _id: session.username });
  if (!member || member.accountId !== session.accountId) {
    await sessions.close(session);
    throw new ManageFailure(401, 'Not signed in');
  }
  if (!['GET', 'HEAD'].includes(ctx.method) && ctx.get('x-csrf-token') !== session.csrfToken) throw new ManageFailure(403, 'Missing or wrong CSRF token');
  if (!roles.includes(member.role)) throw new ManageFailure(403, `Your role (${member.role}) may not ${rule.what}: that takes ${whoMay(rule)}`);
  Object.assign(ctx.state, { session, member } satisfies SignedIn);
  await sessions.seen(session);
}
