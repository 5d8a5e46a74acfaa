// What a missed-call mail says of a voicemail (issue 80): the message's length (the recording's, or
// what the carrier said at its end), its transcript or that one is being made, the language model's
// summary when it read it, and a link that plays it without a sign-in (recordings/listen-links.ts).
import type { DomainCollections, DomainDoc } from '../domains/documents.ts';
import { transcriptTexts } from '../data/transcript-texts.ts';
import { ListenLinks, MAIL_LINK_DAYS } from '../recordings/listen-links.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import type { TranscriptCollections } from '../transcripts/documents.ts';
import type { VoicemailLeft } from './call-alert-mail.ts';

/** The message's seconds as the path says them (`voicemail left (29 s)`), when the recording does not. */
const pathSeconds = (call: CallDoc) => Number(/voicemail left \((\d+) s\)/.exec((call.flowPath ?? []).map((e) => e.outcome).join('\n'))?.[1]) || null;

/** Whether a voicemail's transcript may still come: the domain transcribes, this collector does, and
 * its recording is stored or on its way, with no transcript (nor a failure) yet. */
export function transcriptComing(call: CallDoc, domain: Pick<DomainDoc, 'transcription'>, transcribing: boolean): boolean {
  return transcribing && domain.transcription?.enabled === true && !call.transcript && (call.recording?.status === 'stored' || call.recording?.status === 'fetching');
}

export class VoicemailFacts {
  private readonly links: ListenLinks;

  constructor(
    private readonly c: DomainCollections & TelephonyCollections & TranscriptCollections,
    publicUrl: string,
    private readonly transcribing: boolean,
  ) {
    this.links = new ListenLinks(c, publicUrl);
  }

  /** The facts of each voicemail among `calls`, by call id. */
  async of(domain: DomainDoc, calls: CallDoc[], now: Date): Promise<Map<number, VoicemailLeft>> {
    const voicemails = calls.filter((call) => call.voicemail);
    if (!voicemails.length) return new Map();
    const texts = await transcriptTexts(this.c, voicemails.filter((call) => call.transcript?.status === 'ready').map((call) => call._id));
    const facts = await Promise.all(
      voicemails.map(async (call): Promise<[number, VoicemailLeft]> => [
        call._id,
        {
          seconds: call.recording?.duration ?? pathSeconds(call),
          transcript: call.transcript?.status === 'ready' ? (texts.get(call._id) ?? '') : null,
          transcriptComing: transcriptComing(call, domain, this.transcribing),
          transcriptFailed: call.transcript?.status === 'failed' ? (call.transcript.error ?? 'the engine failed') : null,
          summary: call.analysis?.status === 'ready' ? (call.analysis.summary ?? null) : null,
          listenUrl: call.recording?.status === 'stored' ? await this.links.linkOf(call, MAIL_LINK_DAYS, now.getTime()) : null,
        },
      ]),
    );
    return new Map(facts);
  }
}
