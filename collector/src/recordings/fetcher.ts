// Fetches a recording's audio from where the carrier keeps it into the recording store, as one
// attempt of an outbox message (kind `recording`, webhooks/delivery-worker.ts): so it is retried with
// back-off when the carrier is slow, down or not ready (404), never fetched twice, and never lost on
// a restart. A type that is no audio, a file too large or a private address is refused for good, and
// the call says why; so does a fetch still failing when the outbox gives up. A download has a total
// deadline as well as a pace (webhooks/deadline.ts): a source that trickles is cut off within seconds
// and retried later, so it never holds a delivery slot for long. Once stored, a Twilio
// recording is deleted at Twilio when the domain says so (`recording.deleteAtCarrier`), as a message
// of its own (label `carrier-delete`), retried the same way.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { PrivateAddressRefused, publicOnlyLookup, refusedTarget } from '../webhooks/public-address.ts';
import type { SendResult } from '../webhooks/send.ts';
import { armDeadline, paced, type Pace } from '../webhooks/deadline.ts';
import type { RecordingInfo, RecordingStates } from './states.ts';
import { audioType, RecordingRefused, type RecordingStore } from './store.ts';
import type { TelephonyCollections } from '../telephony/documents.ts';

/** What the outbox keeps of a recording to fetch. */
export interface RecordingJob extends Partial<RecordingInfo> {
  callId: number;
  url: string;
  /** Twilio's media URLs take the account's SID and auth token (HTTP basic). */
  twilioAccountSid?: string;
  /** Delete it at the carrier once stored (the domain's `recording.deleteAtCarrier` when the carrier said it was ready). */
  deleteAtCarrier?: boolean;
}

export interface FetcherOptions {
  /** Refuse loopback and private addresses (as webhooks do; ALLOW_PRIVATE_WEBHOOKS). */
  publicOnly: boolean;
  twilioAuthToken?: string;
  /** The credentials of the account connected to a Twilio AccountSid (carriers/connections.ts), before TWILIO_AUTH_TOKEN. */
  twilioCredentialsFor?: (accountSid: string) => Promise<string | null>;
  /** The answer's headers must come within this (ms). */
  timeoutMs?: number;
  maxBytes?: number;
  /** The audio's pace: RECORDING_PACE unless a test shortens it. */
  pace?: Pace;
}

/** A recording must come faster than a live dual-channel call (8 kHz, 16 bits: 32 KB/s) after ten
 * seconds, and whole within five minutes: 200 MB (MAX_RECORDING_BYTES) needs 0.7 MB/s, which the
 * carriers' media servers give many times over. */
export const RECORDING_PACE: Pace = { minBytesPerSecond: 32 * 1024, graceMs: 10_000, maxMs: 5 * 60_000 };
const HEADERS_TIMEOUT_MS = 30_000;

export const CARRIER_DELETE = 'carrier-delete';
const DONE: SendResult = { delivered: true, httpStatus: null, error: null, permanent: false };

/** The outbox message that fetches a call's recording once (its id is the recording's). */
export function recordingMessage(accountId: string, recordingId: string, job: RecordingJob): OutboxMessage & { id: string } {
  return { id: `recording_${recordingId}`, accountId, stream: `recording:${job.callId}`, kind: 'recording', label: 'recording', url: job.url, contentType: 'application/json', body: JSON.stringify(job), signed: false };
}

/** Twilio's resource of a recording, as its media URL names it (`…/2010-04-01/Accounts/AC…/Recordings/RE…`):
 * `DELETE` of it with `.json` deletes the recording (Twilio's API reference, Recording resource). */
export function twilioRecordingResource(job: RecordingJob): string | null {
  if (!job.twilioAccountSid || !job.sid) return null;
  const url = new URL(job.url);
  const path = `/2010-04-01/Accounts/${job.twilioAccountSid}/Recordings/${job.sid}`;
  return url.pathname.replace(/\.(wav|mp3|json)$/, '') === path ? `${url.origin}${path}.json` : null;
}

export class RecordingFetcher {
  constructor(
    private readonly c: TelephonyCollections,
    private readonly store: RecordingStore,
    private readonly states: RecordingStates,
    private readonly outbox: Outbox,
    private readonly o: FetcherOptions,
  ) {}

  /** One attempt; `signal` aborts it (the worker stopping). */
  async fetch(m: OutboxDoc, signal?: AbortSignal): Promise<SendResult> {
    const job = JSON.parse(m.body) as RecordingJob;
    if (m.label === CARRIER_DELETE) return this.deleteAtCarrier(m.url, job, signal);
    const call = await this.c.calls.findOne({ _id: job.callId }, { projection: { recording: 1 } });
    if (!call || call.recording?.status === 'stored' || call.recording?.status === 'deleted') return DONE; // nothing (more) to do
    let res: IncomingMessage;
    try {
      res = await request('GET', job.url, { auth: await this.authOf(job), publicOnly: this.o.publicOnly, timeoutMs: this.o.timeoutMs ?? HEADERS_TIMEOUT_MS, signal });
    } catch (err) {
      // A private source is refused for good, and the call says why and what would allow it.
      const permanent = err instanceof PrivateAddressRefused;
      const reason = permanent ? `${(err as Error).message}: private and loopback sources are fetched only with ALLOW_PRIVATE_WEBHOOKS=true` : (err as Error).message;
      if (permanent) await this.failed(job.callId, reason);
      return { delivered: false, httpStatus: null, error: reason, permanent };
    }
    if (res.statusCode !== 200) {
      res.destroy(); // its body is not needed: a trickling one holds nothing
      return { delivered: false, httpStatus: res.statusCode ?? null, error: `HTTP ${res.statusCode}`, permanent: false };
    }
    const type = audioType(res.headers['content-type']);
    if (!type) {
      res.destroy();
      const reason = `not audio: ${res.headers['content-type'] ?? 'no type'}`;
      await this.failed(job.callId, reason);
      return { delivered: false, httpStatus: 200, error: reason, permanent: true };
    }
    try {
      const stored = await this.store.save(job.callId, paced(res, this.o.pace ?? RECORDING_PACE, signal, 'the recording'), type, this.o.maxBytes);
      const info = job.sid === undefined ? null : { sid: job.sid, duration: job.duration ?? null, channels: job.channels ?? null };
      // Another fetch of it got there first (a second word of one recording): this copy goes.
      if (!(await this.states.stored(job.callId, stored, info))) await this.store.delete(stored.fileId);
      else if (job.deleteAtCarrier) await this.queueCarrierDelete(m, job);
      return { delivered: true, httpStatus: 200, error: null, permanent: false };
    } catch (err) {
      const permanent = err instanceof RecordingRefused;
      if (permanent) await this.failed(job.callId, (err as Error).message);
      return { delivered: false, httpStatus: 200, error: (err as Error).message, permanent };
    }
  }

  /** The call says its recording could not be fetched, and why. */
  async failed(callId: number, reason: string): Promise<void> {
    await this.states.failed(callId, `recording could not be fetched: ${reason}`);
  }

  private async authOf(job: RecordingJob): Promise<string | undefined> {
    if (!job.twilioAccountSid) return undefined;
    const connected = await this.o.twilioCredentialsFor?.(job.twilioAccountSid);
    return connected ?? (this.o.twilioAuthToken ? `${job.twilioAccountSid}:${this.o.twilioAuthToken}` : undefined);
  }

  private async queueCarrierDelete(m: OutboxDoc, job: RecordingJob): Promise<void> {
    const resource = twilioRecordingResource(job);
    if (resource) await this.outbox.enqueue({ id: `${m._id}_${CARRIER_DELETE}`, accountId: m.accountId, stream: m.stream, kind: 'recording', label: CARRIER_DELETE, url: resource, contentType: 'application/json', body: m.body, signed: false });
  }

  /** Deletes the recording at Twilio: 204, or 404 when it is gone already; the call says when. */
  private async deleteAtCarrier(resource: string, job: RecordingJob, signal: AbortSignal | undefined): Promise<SendResult> {
    let res: IncomingMessage;
    try {
      res = await request('DELETE', resource, { auth: await this.authOf(job), publicOnly: this.o.publicOnly, timeoutMs: this.o.timeoutMs ?? HEADERS_TIMEOUT_MS, signal });
    } catch (err) {
      return { delivered: false, httpStatus: null, error: (err as Error).message, permanent: err instanceof PrivateAddressRefused };
    }
    res.destroy();
    const status = res.statusCode ?? 0;
    if (status !== 204 && status !== 200 && status !== 404) return { delivered: false, httpStatus: status, error: `HTTP ${status}`, permanent: false };
    await this.states.deletedAtCarrier(job.callId);
    return { delivered: true, httpStatus: status, error: null, permanent: false };
  }
}

const MAX_REDIRECTS = 3;

/** A request whose answer's headers must come within `timeoutMs` in all, following a few redirects
 * (the credentials only to the first host). */
function request(method: 'GET' | 'DELETE', url: string, o: { auth: string | undefined; publicOnly: boolean; timeoutMs: number; signal: AbortSignal | undefined }, hops = 0): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const refused = refusedTarget(target, o.publicOnly, 'recording');
    if (refused) return reject(new PrivateAddressRefused(refused));
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, { method, timeout: o.timeoutMs, ...(o.auth ? { auth: o.auth } : {}), ...(o.publicOnly ? { lookup: publicOnlyLookup } : {}) }, (res) => {
      disarm();
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && hops < MAX_REDIRECTS) {
        res.destroy();
        const next = new URL(location, target);
        request(method, next.href, { ...o, auth: next.host === target.host ? o.auth : undefined }, hops + 1).then(resolve, reject);
        return;
      }
      resolve(res);
    });
    const disarm = armDeadline(req, o.timeoutMs, o.signal, 'the answer');
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on('error', (err) => {
      disarm();
      reject(err);
    });
    req.end();
  });
}
