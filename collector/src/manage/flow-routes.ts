// HTTP in for call flows (flows/, issue 65): a domain's flows, written and tested by its owners and
// admins (the numbers and pools each is assigned to are part of it), and each member's own phone and
// availability, which ring groups read. A flow is refused whole with every problem named (400).
import { displayOf, writesAsSpec } from '../domains/phone-display.ts';
import { PassThrough } from 'node:stream';
import type Router from '@koa/router';
import { z } from 'zod';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { countryOf, nationalOf, DEFAULT_COUNTRY } from '../domains/phone-numbers.ts';
import { phoneIn } from '../domains/settings.ts';
import type { CallFlowDoc, FlowCollections } from '../flows/documents.ts';
import { FlowRefused, FlowStore } from '../flows/flow-store.ts';
import { simulateBody, simulateFlow, SimulationRefused } from '../flows/simulate.ts';
import { MAX_PROMPT_BYTES, PromptQuotaReached, type PromptAudio } from '../flows/prompt-audio.ts';
import { AUDIO_TYPES, audioType, RecordingRefused, RecordingTooLarge } from '../recordings/store.ts';
import { dialledNumbersOf, flowBodyIn } from '../flows/steps.ts';
import { DiallingPolicies } from '../dialling/policies.ts';
import { DiallingRefused } from '../dialling/refused.ts';
import type { RateLimitCollections } from '../http/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure, refusedAs400 } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import type { TeamCollections, UserDoc } from '../team/documents.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import { maySee, RULES } from '../team/roles.ts';
import { domainOf } from './settings-routes.ts';

export const availabilityBody = z
  .object({
    phone: z.string().max(40).nullable().optional().describe('The phone your ring groups ring (with its country code, or as your domains’ country writes it); null clears it'),
    available: z.boolean({ error: 'must be true or false' }).optional().describe('False while you take no calls: ring groups skip you'),
  })
  .strict();

/** A flow as the back end shows it: its numbers in the domain's national form. */
export function flowView(flow: CallFlowDoc, domain: DomainDoc) {
  const { _id, domainId: _domain, ...rest } = flow;
  const country = countryOf(domain);
  const national = (n: string) => nationalOf(n, country);
  const steps = Object.fromEntries(Object.entries(rest.steps).map(([name, step]) => [name, step.kind === 'ring' ? { ...step, targets: step.targets.map((t) => ('number' in t ? { ...t, number: national(t.number) } : t)) } : step.kind === 'forward' && step.number ? { ...step, number: national(step.number) } : step]));
  return { id: _id, ...rest, steps, assignedTo: { ...rest.assignedTo, numbers: rest.assignedTo.numbers.map(national) } };
}

/** A member as a ring group's editor sees them: may they be rung now. */
const ringableView = (u: UserDoc) => ({ username: u._id, role: u.role, hasPhone: Boolean(u.phone), available: u.available !== false });

export function flowRoutes(router: Router, c: FlowCollections & TeamCollections & DomainCollections & TelephonyCollections & RateLimitCollections, can: Can, prompts: PromptAudio | null): void {
  const flows = new FlowStore(c, prompts);
  const dialling = new DiallingPolicies(c);
  const refusing = <T>(work: () => Promise<T>) => refusedAs400(work, FlowRefused, SimulationRefused, DiallingRefused);
  const flowOf = async (domain: DomainDoc, flowId: string) => {
    const flow = await flows.get(domain._id, flowId);
    if (!flow) throw new ManageFailure(404, `No call flow ${flowId} in this domain`);
    return flow;
  };

  router.get('/domains/:domain/flows', can(RULES.manageDomain), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const members = (await c.users.find({ accountId: domain.accountId }, { sort: { _id: 1 }, limit: 500 }).toArray()).filter((u) => maySee(u, domain._id));
    ctx.body = { flows: (await flows.list(domain._id)).map((f) => flowView(f, domain)), members: members.map(ringableView), timeZone: domain.timeZone };
  });

  router.post('/domains/:domain/flows', can(RULES.manageDomain, 'flow.create'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(flowBodyIn(countryOf(domain)), bodyOf(ctx.request));
    await refusing(() => dialling.check(domain.accountId, dialledNumbersOf(body.steps)));
    const flow = await refusing(() => flows.create(domain, body, memberOf(ctx)._id));
    auditing(ctx, { flow: flow._id, name: flow.name });
    ctx.status = 201;
    ctx.body = flowView(flow, domain);
  });

  router.put('/domains/:domain/flows/:flowId', can(RULES.manageDomain, 'flow.change'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const body = valid(flowBodyIn(countryOf(domain)), bodyOf(ctx.request));
    await flowOf(domain, ctx.params.flowId!);
    await refusing(() => dialling.check(domain.accountId, dialledNumbersOf(body.steps)));
    const flow = await refusing(() => flows.update(domain, ctx.params.flowId!, body, memberOf(ctx)._id));
    if (!flow) throw new ManageFailure(404, `No call flow ${ctx.params.flowId} in this domain`);
    auditing(ctx, { flow: flow._id, name: flow.name });
    ctx.body = flowView(flow, domain);
  });

  router.delete('/domains/:domain/flows/:flowId', can(RULES.manageDomain, 'flow.delete'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const flow = await flowOf(domain, ctx.params.flowId!);
    await flows.delete(domain._id, flow._id);
    auditing(ctx, { flow: flow._id, name: flow.name });
    ctx.status = 204;
  });

  // A recorded prompt (WAV or MP3, at most 5 MB), streamed into the database; a flow names it by its id.
  router.post('/domains/:domain/flow-audio', can(RULES.manageDomain, 'flow.audio'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const type = audioType(ctx.get('content-type'));
    if (!type) throw new ManageFailure(400, `Content-Type must be audio: ${AUDIO_TYPES.join(', ')}`);
    // Past the size, 413 whether the body said its length or came in chunks (counted as it streams).
    const tooLarge = `An audio file is at most ${MAX_PROMPT_BYTES / 1024 / 1024} MB`;
    if (Number(ctx.get('content-length') || 0) > MAX_PROMPT_BYTES) throw new ManageFailure(413, tooLarge);
    if (!prompts) throw new ManageFailure(409, 'This server keeps no audio files');
    // Through a pass-through: a refusal mid-stream ends it, not the request's socket, which must
    // carry the answer; the connection closes after it rather than read the rest.
    const audio = ctx.req.pipe(new PassThrough());
    const stored = await prompts.upload(domain._id, audio, type).catch((err: Error) => {
      if (err instanceof RecordingTooLarge) throw new ManageFailure(413, tooLarge, { Connection: 'close' });
      if (err instanceof PromptQuotaReached) throw new ManageFailure(409, err.message);
      throw err instanceof RecordingRefused ? new ManageFailure(400, `The audio file is refused: ${err.message}`) : err;
    });
    auditing(ctx, { audio: stored.fileId.toHexString(), size: stored.size });
    ctx.status = 201;
    ctx.body = { id: stored.fileId.toHexString(), size: stored.size, contentType: stored.contentType };
  });

  router.post('/domains/:domain/flows/:flowId/simulate', can(RULES.manageDomain), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const flow = await flowOf(domain, ctx.params.flowId!);
    const body = valid(simulateBody, bodyOf(ctx.request) ?? {});
    ctx.body = await refusing(() => simulateFlow(c, flow, domain, body));
  });

  // A member's own phone and availability: every role sets their own, nobody another's.
  router.get('/profile/availability', can(RULES.member), async (ctx) => {
    ctx.body = await availabilityOf(c, memberOf(ctx)._id);
  });

  router.put('/profile/availability', can(RULES.member, 'profile.availability'), parseBody, async (ctx) => {
    const member = memberOf(ctx);
    const body = valid(availabilityBody, bodyOf(ctx.request));
    const set: Partial<UserDoc> = {};
    const unset: Record<string, 1> = {};
    if (body.phone === null || body.phone?.trim() === '') unset.phone = 1;
    else if (body.phone !== undefined) {
      const country = await countryOfMember(c, member);
      set.phone = valid(z.object({ phone: phoneIn(country) }), { phone: body.phone }).phone;
      // Every ring group of the account rings it: it passes the account's dialling rules.
      await refusing(() => dialling.check(member.accountId, [{ field: 'phone', number: set.phone! }]));
    }
    if (body.available !== undefined) set.available = body.available;
    const update = { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) };
    if (Object.keys(update).length) await c.users.updateOne({ _id: member._id }, update);
    auditing(ctx, { ...(body.phone !== undefined ? { phone: body.phone ? 'set' : 'cleared' } : {}), ...(body.available !== undefined ? { available: body.available } : {}) });
    ctx.body = await availabilityOf(c, member._id);
  });
}

/** A member's phone is read as the country of the first domain they see writes numbers. */
async function countryOfMember(c: DomainCollections, member: UserDoc): Promise<string> {
  const domain = await c.domains.findOne(member.domains ? { accountId: member.accountId, _id: { $in: member.domains } } : { accountId: member.accountId }, { sort: { _id: 1 }, projection: { country: 1 } });
  return domain ? countryOf(domain) : DEFAULT_COUNTRY;
}

async function availabilityOf(c: TeamCollections & DomainCollections, username: string) {
  const user = await c.users.findOne({ _id: username }, { projection: { phone: 1, available: 1, domains: 1, accountId: 1 } });
  const country = user ? await countryOfMember(c, user as UserDoc) : DEFAULT_COUNTRY;
  // Written as the member's country writes it (issue 81: `(415) 555-0123`); a French domain's digits as the spec's.
  return { phone: user?.phone ? (writesAsSpec(country) ? nationalOf(user.phone, country) : displayOf(user.phone, country)) : null, available: user?.available !== false };
}
