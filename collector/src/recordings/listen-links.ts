// A recording's link that plays without a sign-in (issue 80): in the missed-call mail of a voicemail
// and as a CRM engagement's recording (HubSpot plays an HTTPS .wav or .mp3 link inline, and cannot
// sign in to the back end). `/listen/{callId}?until=…&key=…`: the key is an HMAC of the call and
// its time limit under the domain's secret (browser/consent-keys.ts), so nothing is stored per link
// and nobody makes one for another call or a later time. Past its time, or once the recording is
// deleted (by a person, the retention or an erase), it answers 404.
import Router from '@koa/router';
import { ConsentKeys } from '../browser/consent-keys.ts';
import type { DomainCollections } from '../domains/documents.ts';
import type { CallDoc, TelephonyCollections } from '../telephony/documents.ts';
import { serveRecording } from './serve.ts';
import type { RecordingStore } from './store.ts';

const DAY_MS = 86_400_000;
/** How long a mail's link plays: a week, time to read the mail. */
export const MAIL_LINK_DAYS = 7;
/** How long a CRM's link plays: the CRM keeps the engagement, the recording is kept this long at most unless the domain deletes it sooner. */
export const CRM_LINK_DAYS = 400;

export class ListenLinks {
  private readonly keys: ConsentKeys;

  constructor(
    private readonly c: DomainCollections & TelephonyCollections,
    private readonly publicUrl: string,
  ) {
    this.keys = new ConsentKeys(c);
  }

  /** The link that plays the call's recording for `days` from `now`. Its path ends as the file does
   * (`.wav`, `.mp3`): HubSpot plays a recording inline by its link's extension. */
  async linkOf(call: Pick<CallDoc, '_id' | 'domainId' | 'recording'>, days: number, now = Date.now()): Promise<string> {
    const until = Math.floor((now + days * DAY_MS) / 1000);
    const extension = call.recording?.contentType === 'audio/mpeg' ? 'mp3' : 'wav';
    return `${this.publicUrl}/listen/${call._id}.${extension}?until=${until}&key=${await this.keys.keyOf(call.domainId, `${call._id}|${until}`, 'listen')}`;
  }

  routes(store: RecordingStore): Router {
    const router = new Router();
    router.get('/listen/:callId', async (ctx) => {
      const id = Number(/^(\d{1,15})(?:\.(?:wav|mp3))?$/.exec(ctx.params.callId ?? '')?.[1] ?? NaN);
      const until = Number(ctx.query.until);
      const key = typeof ctx.query.key === 'string' ? ctx.query.key : '';
      const call = Number.isSafeInteger(id) && Number.isSafeInteger(until) && until * 1000 > Date.now() ? await this.c.calls.findOne({ _id: id }, { projection: { domainId: 1, recording: 1 } }) : null;
      if (call && (await this.keys.holds(call.domainId, `${id}|${until}`, key, 'listen')) && serveRecording(ctx, store, call, false)) return;
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'This recording is not here: its link is past its time, or the recording was deleted.';
    });
    return router;
  }
}
