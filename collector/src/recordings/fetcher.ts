// Fetches a recording's audio from where the carrier keeps it into the recording store, as one
// attempt of an outbox message (kind `recording`, webhooks/delivery-worker.ts): so it is retried with
// back-off when the carrier is slow, down or not ready (404), never fetched twice, and never lost on
// a restart. A type that is no audio, a file too large or a private address is refused for good, and
// the call says why; so does a fetch still failing when the outbox gives up.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Collections } from '../db/collections.ts';
import type { OutboxDoc, OutboxMessage } from '../webhooks/documents.ts';
import { PrivateAddressRefused, publicOnlyLookup, refusedTarget } from '../webhooks/public-address.ts';
import type { SendResult } from '../webhooks/send.ts';
import { audioType, RecordingRefused, type RecordingStore } from './store.ts';

/** What the outbox keeps of a recording to fetch. */
export interface RecordingJob {
  callId: number;
  url: string;
  /** Twilio's media URLs take the account's SID and auth token (HTTP basic). */
  twilioAccountSid?: string;
}

export interface FetcherOptions {
  /** Refuse loopback and private addresses (as webhooks do; ALLOW_PRIVATE_WEBHOOKS). */
  publicOnly: boolean;
  twilioAuthToken?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

const MAX_REDIRECTS = 3;

/** The outbox message that fetches a call's recording once (its id is the recording's). */
export function recordingMessage(accountId: string, recordingId: string, job: RecordingJob): OutboxMessage & { id: string } {
  return { id: `recording_${recordingId}`, accountId, stream: `recording:${job.callId}`, kind: 'recording', label: 'recording', url: job.url, contentType: 'application/json', body: JSON.stringify(job), signed: false };
}

export class RecordingFetcher {
  constructor(
    private readonly c: Collections,
    private readonly store: RecordingStore,
    private readonly o: FetcherOptions,
  ) {}

  async fetch(m: OutboxDoc): Promise<SendResult> {
    const job = JSON.parse(m.body) as RecordingJob;
    const call = await this.c.calls.findOne({ _id: job.callId }, { projection: { recording: 1 } });
    if (!call || call.recording?.status === 'stored' || call.recording?.status === 'deleted') return { delivered: true, httpStatus: null, error: null, permanent: false }; // nothing (more) to do
    const auth = job.twilioAccountSid && this.o.twilioAuthToken ? `${job.twilioAccountSid}:${this.o.twilioAuthToken}` : undefined;
    let res: IncomingMessage;
    try {
      res = await get(job.url, { auth, publicOnly: this.o.publicOnly, timeoutMs: this.o.timeoutMs ?? 30_000 });
    } catch (err) {
      const permanent = err instanceof PrivateAddressRefused;
      if (permanent) await this.failed(job.callId, (err as Error).message);
      return { delivered: false, httpStatus: null, error: (err as Error).message, permanent };
    }
    if (res.statusCode !== 200) {
      res.resume();
      return { delivered: false, httpStatus: res.statusCode ?? null, error: `HTTP ${res.statusCode}`, permanent: false };
    }
    const type = audioType(res.headers['content-type']);
    if (!type) {
      res.resume();
      const reason = `not audio: ${res.headers['content-type'] ?? 'no type'}`;
      await this.failed(job.callId, reason);
      return { delivered: false, httpStatus: 200, error: reason, permanent: true };
    }
    try {
      const stored = await this.store.save(job.callId, res, type, this.o.maxBytes);
      await this.c.calls.updateOne({ _id: job.callId }, { $set: { 'recording.status': 'stored', 'recording.fileId': stored.fileId, 'recording.size': stored.size, 'recording.contentType': stored.contentType, 'recording.storedAt': new Date() }, $unset: { 'recording.error': '' } });
      return { delivered: true, httpStatus: 200, error: null, permanent: false };
    } catch (err) {
      const permanent = err instanceof RecordingRefused;
      if (permanent) await this.failed(job.callId, (err as Error).message);
      return { delivered: false, httpStatus: 200, error: (err as Error).message, permanent };
    }
  }

  /** The call says its recording could not be fetched, and why. */
  async failed(callId: number, reason: string): Promise<void> {
    await this.c.calls.updateOne({ _id: callId, 'recording.status': 'fetching' }, { $set: { 'recording.status': 'failed', 'recording.error': `recording could not be fetched: ${reason}` } });
  }
}

/** GET with a time limit, following a few redirects (the credentials only to the first host). */
function get(url: string, o: { auth: string | undefined; publicOnly: boolean; timeoutMs: number }, hops = 0): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const refused = refusedTarget(target, o.publicOnly, 'recording');
    if (refused) return reject(new PrivateAddressRefused(refused));
    const client = target.protocol === 'https:' ? https : http;
    const req = client.get(target, { timeout: o.timeoutMs, ...(o.auth ? { auth: o.auth } : {}), ...(o.publicOnly ? { lookup: publicOnlyLookup } : {}) }, (res) => {
      const location = res.headers.location;
      if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && hops < MAX_REDIRECTS) {
        res.resume();
        const next = new URL(location, target);
        get(next.href, { ...o, auth: next.host === target.host ? o.auth : undefined }, hops + 1).then(resolve, reject);
        return;
      }
      resolve(res);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on('error', reject);
  });
}
