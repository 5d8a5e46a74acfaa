// HTTP in for sessions and passwords: sign up, sign in, who is signed in, sign out; a member's own
// password and sessions; the links that let a person choose a password (an invitation, a reset).
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { Can, SignedIn } from '../team/access.ts';
import type { SessionDoc, UserDoc, TeamCollections } from '../team/documents.ts';
import { Invitations, linkUrl } from '../team/invitations.ts';
import { Members } from '../team/members.ts';
import { sendLinkMail } from '../team/link-mail.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { chosenPassword, MAX_PASSWORD } from '../team/password-rules.ts';
import { hashPassword, verifyPassword } from '../team/passwords.ts';
import { RULES } from '../team/roles.ts';
import { SESSION_COOKIE, SESSION_MS, type Sessions } from '../team/sessions.ts';
import type { SignInLimit } from '../team/sign-in-limit.ts';
import { signUp } from '../team/sign-up.ts';
import { checkPassword, MAX_EMAIL_LENGTH, usernameKey } from '../team/users.ts';
import { valid } from '../http/manage-validate.ts';
import { originOf } from './pages.ts';
import type { Logger } from '../logger.ts';
import type { DomainCollections } from '../domains/documents.ts';

const WRONG_CREDENTIALS = 'Wrong username or password';
/** A reset link asked for without signing in works an hour (one an owner makes, 7 days). */
const SELF_RESET_MS = 3_600_000;

export const passwordChange = z.object({ current: z.string().max(MAX_PASSWORD), password: chosenPassword });
export const invitationAccept = z.object({ token: z.string().max(200), password: chosenPassword });
export const invitationCheck = z.object({ token: z.string().max(200) });
export const passwordResetRequest = z.object({ username: z.string().trim().min(1, 'is required').max(MAX_EMAIL_LENGTH) });

/** The session's member as the page needs them: `domains` null when they see every domain. */
function whoIs(session: SessionDoc, member: UserDoc) {
  return { username: session.username, account: session.accountId, role: member.role, domains: member.domains ?? null, csrfToken: session.csrfToken };
}

export function sessionRoutes(router: Router, c: TeamCollections & DomainCollections, sessions: Sessions, limit: SignInLimit, can: Can, options: { signUp: boolean; mail: { from?: string }; outbox: Outbox | null; publicUrl: string; log: Logger }): void {
  const links = new Invitations(c);
  const signedIn = (ctx: Context) => ctx.state as SignedIn;

  const openSession = async (ctx: Context, member: UserDoc) => {
    const { token, session } = await sessions.open(member, { ip: ctx.ip, userAgent: ctx.get('user-agent') });
    ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/manage', maxAge: SESSION_MS, overwrite: true });
    ctx.body = whoIs(session, member);
  };

  router.get('/config', can(RULES.anyone), (ctx) => {
    ctx.body = { signUp: options.signUp, mail: Boolean(options.mail.from) };
  });

  router.post('/signup', can(RULES.anyone, 'account.create'), sameOrigin, parseBody, async (ctx) => {
    if (!options.signUp) throw new ManageFailure(403, 'Sign-up is off on this server: ask its administrator for an account');
    await limit.signUp(ctx.ip);
    const member = await signUp(c, bodyOf(ctx.request));
    ctx.status = 201;
    await openSession(ctx, member);
    ctx.state.member = member;
  });

  router.post('/session', can(RULES.anyone), sameOrigin, parseBody, async (ctx) => {
    const { username, password } = bodyOf(ctx.request);
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) throw new ManageFailure(400, 'username and password are required');
    // No account has a longer one: refused before a limit's document or a hash is made of it.
    if (username.length > MAX_EMAIL_LENGTH || password.length > MAX_PASSWORD) throw new ManageFailure(401, WRONG_CREDENTIALS);
    const member = await limit.attempt(ctx.ip, usernameKey(username), () => checkPassword(c, username, password));
    if (!member) throw new ManageFailure(401, WRONG_CREDENTIALS);
    await openSession(ctx, member);
  });

  router.get('/session', can(RULES.member), (ctx) => {
    ctx.body = whoIs(signedIn(ctx).session, signedIn(ctx).member);
  });

  router.delete('/session', can(RULES.member), async (ctx) => {
    await sessions.close(signedIn(ctx).session);
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/manage', overwrite: true });
    ctx.status = 204;
  });

  /** A new password, the current one required; every other session of the member ends. */
  router.put('/session/password', can(RULES.member, 'password.change'), parseBody, async (ctx) => {
    const { member, session } = signedIn(ctx);
    const { current, password } = valid(passwordChange, bodyOf(ctx.request));
    // Counted as sign-in attempts: a session left open is not a way to guess the password.
    const right = await limit.attempt(ctx.ip, member._id, async () => ((await verifyPassword(current, member.passwordHash ?? '')) ? true : null));
    if (!right) throw new ManageFailure(400, 'current: is not your current password');
    await c.users.updateOne({ _id: member._id }, { $set: { passwordHash: await hashPassword(password) } });
    ctx.body = { endedSessions: await sessions.endAll(member._id, session) };
  });

  router.get('/session/sessions', can(RULES.member), async (ctx) => {
    const { member, session } = signedIn(ctx);
    ctx.body = {
      sessions: (await sessions.ofUser(member._id)).map((s) => ({ id: s._id, current: s._id === session._id, device: s.userAgent ?? null, address: s.ip ?? null, signedInAt: s.createdAt.toISOString(), lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString() })),
    };
  });

  router.delete('/session/sessions/:id', can(RULES.member, 'session.end'), async (ctx) => {
    if (!(await sessions.end(signedIn(ctx).member._id, ctx.params.id!))) throw new ManageFailure(404, 'No such session of yours');
    ctx.status = 204;
  });

  /** Every session of the member but the one asking. */
  router.delete('/session/sessions', can(RULES.member, 'session.end-others'), async (ctx) => {
    ctx.body = { endedSessions: await sessions.endAll(signedIn(ctx).member._id, signedIn(ctx).session) };
  });

  /** What a link is for, before its person chooses a password; or why it cannot be used. */
  router.post('/invitations/check', can(RULES.anyone), parseBody, async (ctx) => {
    const link = await links.check(valid(invitationCheck, bodyOf(ctx.request)).token);
    ctx.body = { kind: link.kind, username: link.username, account: link.accountId, role: link.role, expiresAt: link.expiresAt.toISOString() };
  });

  /** The person chooses their password and is signed in, as by POST /session. */
  router.post('/invitations/accept', can(RULES.anyone, 'member.join'), sameOrigin, parseBody, async (ctx) => {
    const { token, password } = valid(invitationAccept, bodyOf(ctx.request));
    const { member, kind } = await links.accept(token, password);
    await openSession(ctx, member);
    Object.assign(ctx.state, { member, auditAction: kind === 'reset' ? 'password.reset' : 'member.join', auditDetails: { role: member.role } });
  });

  /** Forgot password: a reset link by e-mail when mail is configured; the answer is the same, and
   * comes as soon, whether the address has a login or not: the link is made and queued after the
   * answer, so no timing tells a member from a stranger. Limited per address asked for, so nobody
   * can fill a member's mailbox with links. */
  router.post('/password-reset', can(RULES.anyone), sameOrigin, parseBody, async (ctx) => {
    const { username } = valid(passwordResetRequest, bodyOf(ctx.request));
    if (!options.outbox) {
      ctx.body = { mailSent: false, message: 'This server does not send e-mail: ask an owner of your account for a reset link (Account, Members), or its operator to run npm run admin -- reset-password' };
      return;
    }
    await limit.resetRequest(ctx.ip, usernameKey(username));
    const outbox = options.outbox;
    setImmediate(() => {
      void mailResetLink(c, outbox, options.publicUrl, usernameKey(username)).catch((err) => options.log.error({ err }, 'a password reset link could not be queued'));
    });
    ctx.body = { mailSent: true, message: `If ${usernameKey(username)} has a login here, a link to choose a new password is on its way. It works once, for an hour.` };
  });
}

/** The reset link of a member who asked for one, mailed; nothing for an address without a login. */
async function mailResetLink(c: TeamCollections & DomainCollections, outbox: Outbox, publicUrl: string, username: string): Promise<void> {
  const member = await c.users.findOne({ _id: username });
  if (!member) return;
  const link = await new Members(c).resetLink(member.accountId, member._id, member._id, SELF_RESET_MS);
  await sendLinkMail(outbox, { kind: 'password-reset', accountId: member.accountId, to: member._id, url: linkUrl(`${publicUrl}/manage/`, link.token), expiresAt: link.expiresAt });
}

/** A form of another site cannot sign a visitor in under an account of its choosing. */
async function sameOrigin(ctx: Context, next: Next): Promise<void> {
  const origin = ctx.get('origin');
  if (origin && origin !== originOf(ctx)) throw new ManageFailure(403, 'Cross-site request refused');
  await next();
}
