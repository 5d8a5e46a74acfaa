// HTTP in for a call's analysis (issue 66): a person corrects an outcome the language model gave.
// Their word wins (the model never reads the call again) and the call's history keeps it, as with
// tags and values. Who gives verdicts may correct. The Settings card reads which server and model
// answer, and who manages the domain tries them on a sample call, one try at a time.
import type Router from '@koa/router';
import { z } from 'zod';
import { analyzeTranscript, languageName } from '../analysis/analyze.ts';
import { OUTCOMES, VERDICTS } from '../analysis/answer.ts';
import { AnalysisFailure, type ModelClient } from '../analysis/model-client.ts';
import { sampleCall } from '../analysis/sample-call.ts';
import { transcriptionLanguage } from '../domains/transcription-settings.ts';
import type { DomainCollections } from '../domains/documents.ts';
import { bodyOf, parseBody } from '../http/body.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import { valid } from '../http/manage-validate.ts';
import { auditing, memberOf, type Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import type { CallWrites } from '../telephony/call-writes.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import { domainOf } from './settings-routes.ts';
import { withEntries } from '../rules/marks.ts';

export const outcomeBody = z.object({ answer: z.enum(VERDICTS, { error: `must be one of ${VERDICTS.join(', ')}` }).describe('yes, no or unknown') }).strict();

/** Where the model is reached, without what a URL may carry of a secret (a user and password). */
export function serverShown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'an unreadable ANALYZE_URL';
  }
}

const NOT_CONFIGURED = 'no language model is configured: start the collector with ANALYZE_URL (an OpenAI-compatible server, such as Ollama at http://127.0.0.1:11434/v1) and ANALYZE_MODEL';

export function analysisRoutes(router: Router, c: DomainCollections & TelephonyCollections, can: Can, writes: CallWrites, model: ModelClient | null): void {
  /** The server and model that answer, and the domain's settings. */
  router.get('/domains/:domain/analysis', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const settings = { enabled: domain.analysis?.enabled ?? false, questions: domain.analysis?.questions ?? [] };
    ctx.body = model ? { configured: true, server: serverShown(model.settings.url), model: model.settings.model, ...settings } : { configured: false, server: null, model: null, refusal: NOT_CONFIGURED, ...settings };
  });

  // One try at a time in this process: each holds the model for up to its timeout (ANALYZE_*).
  let trying = false;
  router.post('/domains/:domain/analysis/try', can(RULES.manageDomain, 'analysis.try'), async (ctx) => {
    const domain = await domainOf(c, ctx);
    if (!model) throw new ManageFailure(409, NOT_CONFIGURED);
    if (trying) throw new ManageFailure(429, 'A try is already running: wait for its answer');
    trying = true;
    const started = Date.now();
    const sample = sampleCall(transcriptionLanguage(domain));
    try {
      const questions = domain.analysis?.questions ?? [];
      const a = await analyzeTranscript(model, sample.turns, { language: languageName(sample.language), questions });
      ctx.body = {
        server: serverShown(model.settings.url),
        model: model.settings.model,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        format: a.format,
        transcript: sample.turns.map((t) => `${t.speaker}: ${t.text}`).join('\n'),
        raw: a.raw.join('\n'),
        analysis: { summary: a.summary, intent: a.intent, outcomes: a.outcomes, followUp: a.followUp, leadScore: a.leadScore, leadScoreReasons: a.leadScoreReasons, sentiment: a.sentiment, answers: a.questions.map((j, i) => ({ question: questions[i]!, ...j })) },
      };
    } catch (err) {
      if (!(err instanceof AnalysisFailure)) throw err;
      throw new ManageFailure(502, `The model gave no answer: ${err.message}`);
    } finally {
      trying = false;
    }
  });

  router.put('/domains/:domain/calls/:callId/analysis/outcomes/:name', can(RULES.giveVerdicts, 'call.outcome'), parseBody, async (ctx) => {
    const domain = await domainOf(c, ctx);
    const name = ctx.params.name!;
    if (!(OUTCOMES as readonly string[]).includes(name)) throw new ManageFailure(404, `No outcome ${name}: one of ${OUTCOMES.join(', ')}`);
    const { answer } = valid(outcomeBody, bodyOf(ctx.request));
    const callId = Number(ctx.params.callId);
    const call = Number.isSafeInteger(callId) ? await c.calls.findOne({ _id: callId, domainId: domain._id }, { projection: { _id: 1 } }) : null;
    if (!call) throw new ManageFailure(404, `No call ${ctx.params.callId} in this domain`);
    const by = memberOf(ctx)._id;
    const now = new Date();
    const after = await writes.change(callId, (stored) => {
      if (stored.analysis?.status !== 'ready') return null;
      const was = stored.analysis.outcomes?.[name]?.answer ?? 'unknown';
      return {
        analysis: { ...stored.analysis, outcomes: { ...stored.analysis.outcomes, [name]: { answer, by } } },
        history: withEntries(stored.history, [{ at: now, by, what: `${name} ${answer} (the model said ${was})` }]),
      };
    });
    if (!after) throw new ManageFailure(409, 'The call has no analysis to correct');
    auditing(ctx, { callId, outcome: name, answer });
    ctx.body = { outcome: name, ...after.analysis!.outcomes![name] };
  });
}
