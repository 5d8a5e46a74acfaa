// HTTP in for the agent service: POST form bodies with the account's call-center apiKey.
import { LOGGED_KINDS, type WebhookCollections } from '../webhooks/documents.ts';
import Router from '@koa/router';
import type { Context } from 'koa';
import { agentStatsRequest, callStartRequest, deliveryLogRequest, formatUtcDateTime, setAgentRequest } from '@ringtrail/shared';
import type { AccountDoc, TeamCollections } from '../team/documents.ts';
import { DialledNumbers } from '../domains/dialled-numbers.ts';
import { hashKey } from '../domains/keys.ts';
import { AgentFailure, agentEnvelope, invalidKeyMessage, parseAgentParams } from '../http/agent-envelope.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import type { Logger } from '../logger.ts';
import type { AgentService } from './service.ts';
import type { DomainCollections } from '../domains/documents.ts';

export function agentRoutes(c: TeamCollections & DomainCollections & WebhookCollections, service: AgentService, log: Logger): Router {
  const dialled = new DialledNumbers(c);
  const router = new Router({ prefix: '/agent-api' });

  async function accountOf(body: Record<string, unknown>): Promise<AccountDoc> {
    const key = body.apiKey;
    const account = typeof key === 'string' && key !== '' ? await c.accounts.findOne({ callCenterApiKeyHash: hashKey(key) }) : null;
    if (!account) throw new AgentFailure(invalidKeyMessage(key));
    return account;
  }

  /** A POST door: the key first (NOK when bad), then the answer's results. */
  function door(path: string, answer: (account: AccountDoc, body: Record<string, unknown>) => Promise<unknown[]>): void {
    router.post(path, async (ctx: Context) => {
      const body = bodyOf(ctx.request);
      const account = await accountOf(body);
      const results = await answer(account, body);
      ctx.body = { status: 'OK', resultsNb: results.length, results };
    });
  }

  router.use(agentEnvelope(log), parseBody);

  door('/callStart', async (account, body) => {
    const req = parseAgentParams(callStartRequest, body);
    // Read as the dialled number's domain reads them (a US call center sends 4155550141).
    const read = await dialled.read({ trackingNumber: req.destinationPhone, callerPhone: req.callerPhone }, { trackingNumber: body.destinationPhone, callerPhone: body.callerPhone });
    return service.callStart(account, { ...req, destinationPhone: read.trackingNumber, callerPhone: read.callerPhone });
  });

  door('/setAgentToCall', async (account, body) => {
    const { callId, agent } = parseAgentParams(setAgentRequest, body);
    return [await service.setAgentToCall(account, callId, agent)];
  });

  /** Ours (the spec names the figures, not the endpoint): one row per agent. */
  door('/agentStats', (account, body) => service.stats(account, parseAgentParams(agentStatsRequest, body)));

  /** Ours: the account's webhook attempts, newest first, each with what was sent. */
  door('/webhookDeliveries', async (account, body) => {
    const { callId, limit } = parseAgentParams(deliveryLogRequest, body);
    const filter = { accountId: account._id, kind: { $in: LOGGED_KINDS }, ...(callId !== undefined ? { stream: `call:${callId}` } : {}) };
    const attempts = await c.deliveryLog.find(filter).sort({ at: -1, attempt: -1 }).limit(limit).toArray();
    return attempts.map((d) => ({ id: d.messageId, attempt: d.attempt, at: formatUtcDateTime(d.at), kind: d.kind, type: d.label, stream: d.stream, outcome: d.outcome, httpStatus: d.httpStatus, error: d.error, body: d.body }));
  });
  return router;
}
