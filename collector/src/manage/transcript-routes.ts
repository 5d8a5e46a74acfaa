// HTTP in for transcripts: a call's transcript (JSON turns, or as text or WebVTT captions), and which
// speech-to-text engine the collector uses, whether it answers, and whether it speaks the domain's
// language. Whoever may read a call's page reads its transcript; a shared report link never does.
import type Router from '@koa/router';
import type { DomainCollections } from '../domains/documents.ts';
import { transcriptionLanguage } from '../domains/transcription-settings.ts';
import { ManageFailure } from '../http/manage-envelope.ts';
import type { Can } from '../team/access.ts';
import { RULES } from '../team/roles.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { EngineClient } from '../transcripts/engine-client.ts';
import { languageRefusal } from '../transcripts/transcriber.ts';
import { transcriptText } from '../transcripts/turns.ts';
import { transcriptVtt } from '../transcripts/captions.ts';
import { domainOf } from './settings-routes.ts';

const FORMATS = ['json', 'txt', 'vtt'];

export function transcriptRoutes(router: Router, c: DomainCollections & TelephonyCollections & TranscriptCollections, can: Can, engine: EngineClient | null): void {
  router.get('/domains/:domain/calls/:callId/transcript', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const format = ctx.query.format ?? 'json';
    if (typeof format !== 'string' || !FORMATS.includes(format)) throw new ManageFailure(400, `format must be one of ${FORMATS.join(', ')}`);
    const callId = Number(ctx.params.callId);
    const transcript = Number.isSafeInteger(callId) ? await c.transcripts.findOne({ _id: callId, domainId: domain._id }) : null;
    if (!transcript) throw new ManageFailure(404, `No transcript of call ${ctx.params.callId} in this domain`);
    if (format === 'json') {
      const { turns, spotted, text, language, engine: madeBy, model, audioSeconds, madeAt, demo } = transcript;
      ctx.body = { callId, language, engine: madeBy, model, audioSeconds, madeAt, ...(demo ? { demo } : {}), turns, spotted, text };
      return;
    }
    ctx.type = format === 'vtt' ? 'text/vtt; charset=utf-8' : 'text/plain; charset=utf-8';
    if (ctx.query.download === '1') ctx.set('Content-Disposition', `attachment; filename="call-${callId}-transcript.${format}"`);
    ctx.body = format === 'vtt' ? transcriptVtt(transcript.turns, transcript.wordTimes) : `${transcriptText(transcript.turns)}\n`;
  });

  /** The engine the collector uses and whether it answers now; whether it speaks the domain's language. */
  router.get('/domains/:domain/transcription', can(RULES.readCalls), async (ctx) => {
    const domain = await domainOf(c, ctx);
    const language = transcriptionLanguage(domain);
    if (!engine) {
      ctx.body = { configured: false, engine: null, language, refusal: 'no speech-to-text engine is configured: start the collector with TRANSCRIBE_URL=local (the bundled engine) or the URL of an OpenAI-compatible one' };
      return;
    }
    const { name, model, englishOnly } = engine.settings;
    const check = await engine.check();
    ctx.body = { configured: true, engine: { name, model, englishOnly, answers: check.answers, error: check.error }, language, refusal: languageRefusal(engine.settings, domain) };
  });
}
