// A recording whose fetch fails the moment it is queued (a private source, refused before any
// connection), before the call has said it is being fetched: the call must still say `failed`, with
// why. The worst schedule is made certain here: the outbox runs the real fetcher on each message as
// it is stored, before `ready` goes on (it once wrote `fetching` over the failure, and the call
// stayed `fetching` for good).
import { describe, expect, it } from 'vitest';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { reportCall, TELEPHONY_KEY } from '../helpers/telephony.ts';
import { wireCallWrites } from '../../collector/src/house/writes.ts';
import { Outbox } from '../../collector/src/webhooks/outbox.ts';
import type { OutboxMessage } from '../../collector/src/webhooks/documents.ts';
import { RecordingFetcher } from '../../collector/src/recordings/fetcher.ts';
import { Recordings } from '../../collector/src/recordings/recordings.ts';
import { RecordingStates } from '../../collector/src/recordings/states.ts';
import { RecordingStore } from '../../collector/src/recordings/store.ts';

describe('a recording fetch that fails at once', () => {
  const s = useSeededCollector('recording_instant_failure', trackingFixture(), { telephonyApiKey: TELEPHONY_KEY });

  it('leaves the call saying failed, and why', async () => {
    const states = new RecordingStates(wireCallWrites(s.t.c));
    const store = new RecordingStore(s.t.db);
    const fetcher: { run?: RecordingFetcher } = {};
    /** The real outbox, whose worker takes each message the moment it is stored. */
    class InstantOutbox extends Outbox {
      override async enqueue(message: OutboxMessage, now = new Date(), notBefore = now): Promise<string> {
        const id = await super.enqueue(message, now, notBefore);
        const doc = await s.t.c.outbox.findOneAndDelete({ _id: id });
        if (doc) await fetcher.run!.fetch(doc);
        return id;
      }
    }
    const outbox = new InstantOutbox(s.t.c);
    fetcher.run = new RecordingFetcher(s.t.c, store, states, outbox, { publicOnly: true });
    const { body } = await reportCall(s.collector.baseUrl, { callRef: 'instant-failure', trackingNumber: '0100000001', startDate: new Date(), status: 'SUCCESS', duration: 60 });
    const call = (await s.t.c.calls.findOne({ _id: body.callId }))!;
    await new Recordings(s.t.c, outbox, store, states).ready(call, `call-${call._id}`, { duration: null, channels: null }, { url: 'http://127.0.0.1:9/rec.wav' });
    expect((await s.t.c.calls.findOne({ _id: call._id }))!.recording).toMatchObject({ status: 'failed', error: 'recording could not be fetched: recording address 127.0.0.1 is private: private and loopback sources are fetched only with ALLOW_PRIVATE_WEBHOOKS=true' });
  });
});
