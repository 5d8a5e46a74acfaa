// HTTP in for the back end's sessions: sign up, sign in, who is signed in, sign out; and the
// settings and reports routes behind them. Every state-changing request of a session carries its
// CSRF token in `X-CSRF-Token`; the cookie is HttpOnly, SameSite=Lax.
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { AgentService } from '../agent/service.ts';
import type { Collections } from '../db/collections.ts';
import type { SessionDoc, UserDoc } from './documents.ts';
import type { OfflineNumbers } from '../offline/service.ts';
import type { DomainCache } from '../domains/domain-cache.ts';
import type { TrafficBuffer } from '../reports/traffic-buffer.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, manageEnvelope } from '../http/manage-envelope.ts';
import type { Logger } from '../logger.ts';
import { SESSION_COOKIE, SESSION_MS, Sessions } from './sessions.ts';
import type { SignInLimit } from './sign-in-limit.ts';
import { reportRoutes } from './report-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { blocklistRoutes } from './blocklist-routes.ts';
import { verdictRoutes } from './verdict-routes.ts';
import { MAX_PASSWORD, signUp } from './sign-up.ts';
import { checkPassword, MAX_EMAIL_LENGTH, usernameKey } from './users.ts';
import type { CallWrites } from '../telephony/call-writes.ts';

const WRONG_CREDENTIALS = 'Wrong username or password';

export interface ManageOptions {
  /** The sign-up page and its route: on in development, a setting in production. */
  signUp: boolean;
  /** Refuse webhook URLs of loopback and private addresses (ALLOW_PRIVATE_WEBHOOKS off). */
  publicWebhooksOnly: boolean;
}

export interface ManageServices {
  outbox: Outbox;
  agents: AgentService;
  offline: OfflineNumbers;
  /** The app's call writes (their GA4 endpoint); absent: the defaults. */
  callWrites?: CallWrites;
  /** The domains the other doors found by their keys: a change made here clears them at once. */
  domains?: DomainCache;
  /** The traffic counters this process has summed and not written yet: written before a read. */
  traffic?: TrafficBuffer;
}

export function manageRoutes(c: Collections, limit: SignInLimit, services: ManageServices, options: ManageOptions, log: Logger): Router {
  const sessions = new Sessions(c);
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

  const openSession = async (ctx: Context, user: UserDoc) => {
    const { token, session } = await sessions.open(user);
    ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/manage', maxAge: SESSION_MS, overwrite: true });
    ctx.body = whoIs(session);
  };

  router.get('/config', (ctx) => {
    ctx.body = { signUp: options.signUp };
  });

  router.post('/signup', sameOrigin, parseBody, async (ctx) => {
    if (!options.signUp) throw new ManageFailure(403, 'Sign-up is off on this server: ask its administrator for an account');
    await limit.signUp(ctx.ip);
    const user = await signUp(c, bodyOf(ctx.request));
    ctx.status = 201;
    await openSession(ctx, user);
  });

  router.post('/session', sameOrigin, parseBody, async (ctx) => {
    const { username, password } = bodyOf(ctx.request);
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) throw new ManageFailure(400, 'username and password are required');
    // No account has a longer one: refused before a limit's document or a hash is made of it.
    if (username.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD) throw new ManageFailure(401, WRONG_CREDENTIALS);
    const user = await limit.attempt(ctx.ip, usernameKey(username), () => checkPassword(c, username, password));
    if (!user) throw new ManageFailure(401, WRONG_CREDENTIALS);
    await openSession(ctx, user);
  });

  router.get('/session', signedIn(sessions), (ctx) => {
    ctx.body = whoIs(ctx.state.session as SessionDoc);
  });

  router.delete('/session', signedIn(sessions), async (ctx) => {
    await sessions.close(ctx.state.session as SessionDoc);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/manage', overwrite: true });
    ctx.status = 204;
  });

  const auth = signedIn(sessions);
  settingsRoutes(router, c, services.outbox, services.offline, auth, options);
  blocklistRoutes(router, c, auth);
  verdictRoutes(router, c, auth, services.callWrites);
  reportRoutes(router, c, services.agents, auth);
  return router;
}

function whoIs(session: SessionDoc) {
  return { username: session.username, account: session.accountId, csrfToken: session.csrfToken };
}

/** A form of another site cannot sign a visitor in under an account of its choosing. */
async function sameOrigin(ctx: Context, next: Next): Promise<void> {
  const origin = ctx.get('origin');
  if (origin && origin !== `${ctx.protocol}://${ctx.host}`) throw new ManageFailure(403, 'Cross-site request refused');
  await next();
}

/** The signed-in session in `ctx.state.session`; a request that changes anything must also carry its CSRF token. */
export function signedIn(sessions: Sessions) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const session = await sessions.of(ctx.cookies.get(SESSION_COOKIE));
    if (!session) throw new ManageFailure(401, 'Not signed in');
    if (!['GET', 'HEAD'].includes(ctx.method) && ctx.get('x-csrf-token') !== session.csrfToken) throw new ManageFailure(403, 'Missing or wrong CSRF token');
    ctx.state.session = session;
    await next();
  };
}
