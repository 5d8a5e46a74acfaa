// A domain's call flows, as people write them: read in the domain's country (steps.ts), checked as a
// whole (flow-checks.ts), each ring group's members of the account and seeing the domain; at most
// MAX_FLOWS a domain, names once a domain.
import { randomUUID } from 'node:crypto';
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import type { TeamCollections } from '../team/documents.ts';
import { maySee } from '../team/roles.ts';
import type { CallFlowDoc, FlowCollections } from './documents.ts';
import { flowProblems } from './flow-checks.ts';
import type { PromptAudio } from './prompt-audio.ts';
import type { FlowBody } from './steps.ts';

export const MAX_FLOWS = 50;

export class FlowRefused extends Error {}

/** What a flow is checked against: its domain, account and pools. */
type FlowDomain = Pick<DomainDoc, '_id' | 'accountId' | 'pools'>;

export class FlowStore {
  /** `prompts`: where the flows' recorded prompts are, to check a flow names only the domain's. */
  constructor(
    private readonly c: FlowCollections & TeamCollections & DomainCollections,
    private readonly prompts: PromptAudio | null = null,
  ) {}

  list(domainId: string): Promise<CallFlowDoc[]> {
    return this.c.callFlows.find({ domainId }, { sort: { name: 1 }, limit: MAX_FLOWS }).toArray();
  }

  get(domainId: string, flowId: string): Promise<CallFlowDoc | null> {
    return this.c.callFlows.findOne({ _id: flowId, domainId });
  }

  async create(domain: FlowDomain, body: FlowBody, by: string, now = new Date()): Promise<CallFlowDoc> {
    await this.check(domain, body, null);
    if ((await this.c.callFlows.countDocuments({ domainId: domain._id }, { limit: MAX_FLOWS })) >= MAX_FLOWS) throw new FlowRefused(`a domain has at most ${MAX_FLOWS} call flows`);
    const flow: CallFlowDoc = { _id: `flow_${randomUUID()}`, domainId: domain._id, ...body, createdAt: now, updatedAt: now, by };
    await this.c.callFlows.insertOne(flow);
    return flow;
  }

  async update(domain: FlowDomain, flowId: string, body: FlowBody, by: string, now = new Date()): Promise<CallFlowDoc | null> {
    await this.check(domain, body, flowId);
    return this.c.callFlows.findOneAndUpdate({ _id: flowId, domainId: domain._id }, { $set: { ...body, updatedAt: now, by } }, { returnDocument: 'after' });
  }

  async delete(domainId: string, flowId: string): Promise<boolean> {
    return (await this.c.callFlows.deleteOne({ _id: flowId, domainId })).deletedCount === 1;
  }

  /** Refused with every problem, each naming its field. */
  private async check(domain: FlowDomain, body: FlowBody, flowId: string | null): Promise<void> {
    const problems = flowProblems(body);
    const same = await this.c.callFlows.findOne({ domainId: domain._id, name: body.name }, { projection: { _id: 1 } });
    if (same && same._id !== flowId) problems.push(`name: the domain has a flow named ${body.name} already`);
    problems.push(...(await this.memberProblems(domain, body)), ...(await this.assignmentProblems(domain, body, flowId)), ...((await this.prompts?.missing(domain._id, body)) ?? []));
    if (problems.length > 0) throw new FlowRefused(problems.join('; '));
  }

  /** The pools and numbers a flow is given: the domain's, and given to no other of its flows. */
  private async assignmentProblems(domain: FlowDomain, { assignedTo }: FlowBody, flowId: string | null): Promise<string[]> {
    const problems: string[] = [];
    assignedTo.pools.forEach((type, i) => {
      if (!domain.pools.some((p) => p.type === type)) problems.push(`assignedTo.pools.${i}: the domain has no pool of type ${type}`);
    });
    const own = new Set((await this.c.trackingNumbers.find({ _id: { $in: assignedTo.numbers }, domainId: domain._id }, { projection: { _id: 1 } }).toArray()).map((n) => n._id));
    assignedTo.numbers.forEach((n, i) => {
      if (!own.has(n)) problems.push(`assignedTo.numbers.${i}: ${n} is not a tracking number of the domain`);
    });
    const others = (await this.list(domain._id)).filter((f) => f._id !== flowId);
    const takenBy = (has: (f: CallFlowDoc) => boolean) => others.find(has)?.name;
    const whole = assignedTo.domain && takenBy((f) => f.assignedTo?.domain === true);
    if (whole) problems.push(`assignedTo.domain: the flow ${whole} is the domain's already`);
    assignedTo.pools.forEach((type, i) => {
      const by = takenBy((f) => f.assignedTo?.pools.includes(type) ?? false);
      if (by) problems.push(`assignedTo.pools.${i}: pool ${type} uses the flow ${by} already`);
    });
    assignedTo.numbers.forEach((n, i) => {
      const by = takenBy((f) => f.assignedTo?.numbers.includes(n) ?? false);
      if (by) problems.push(`assignedTo.numbers.${i}: ${n} uses the flow ${by} already`);
    });
    return problems;
  }

  /** Each ring group's members: of the account, and seeing the domain. */
  private async memberProblems({ _id: domainId, accountId }: FlowDomain, body: FlowBody): Promise<string[]> {
    const named = Object.entries(body.steps).flatMap(([name, step]) => (step.kind === 'ring' ? step.targets.flatMap((t, i) => ('member' in t ? [{ field: `steps.${name}.targets.${i}.member`, member: t.member }] : [])) : []));
    if (named.length === 0) return [];
    const users = new Map((await this.c.users.find({ _id: { $in: [...new Set(named.map((n) => n.member))] }, accountId }).toArray()).map((u) => [u._id, u]));
    return named.flatMap(({ field, member }) => {
      const user = users.get(member);
      if (!user) return [`${field}: ${member} is not a member of the account`];
      return maySee(user, domainId) ? [] : [`${field}: ${member} does not see this domain`];
    });
  }
}
