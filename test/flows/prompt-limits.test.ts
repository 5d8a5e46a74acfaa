// Recorded prompts' limits (issue 79), tried as the attack was: a body over 5 MB sent in chunks (no
// Content-Length) gets 413 in the back end's envelope and leaves nothing; ids are 12 random bytes,
// nothing shared between two uploads that would let one guess another account's; a domain keeps
// at most 50 files, even with 55 uploads at once; a file no flow names is removed a day after its
// upload, a file a flow names stays.
import { GridFSBucket, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { PromptAudio } from '../../collector/src/flows/prompt-audio.ts';
import { useSeededCollector } from '../helpers/collector.ts';
import { trackingFixture } from '../helpers/fixtures.ts';
import { signedInClient } from '../helpers/manage-client.ts';
import { toneWav } from '../helpers/wav.ts';

const OWNER = { username: 'owner@shop.test', password: 'prompt limits owner password' };

describe('recorded prompts: limits', () => {
  const s = useSeededCollector('prompt_limits', trackingFixture({ users: [OWNER] }));
  const files = () => s.t.db.collection('flow_audio.files');

  let session: { cookie: string; csrfToken: string };
  const upload = async (body: BodyInit, headers: Record<string, string> = {}) => {
    session ??= await (async () => {
      const login = await fetch(`${s.collector.baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OWNER) });
      return { cookie: login.headers.get('set-cookie')!.split(';')[0]!, csrfToken: ((await login.json()) as { csrfToken: string }).csrfToken };
    })();
    const res = await fetch(`${s.collector.baseUrl}/manage/api/domains/shop.test/flow-audio`, { method: 'POST', headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken, 'content-type': 'audio/wav', ...headers }, body, duplex: 'half' } as RequestInit);
    return { status: res.status, body: (await res.json()) as any };
  };

  it('answers 413 to a chunked body over 5 MB, in the envelope, and keeps nothing of it', async () => {
    const wav = toneWav(1);
    // A WAV that goes on: 6 MB in 64 KB chunks, with no Content-Length (Transfer-Encoding: chunked).
    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 6 * 1024 * 1024) return controller.close();
        const chunk = sent === 0 ? new Uint8Array(Buffer.concat([wav, Buffer.alloc(65_536 - wav.length)])) : new Uint8Array(65_536);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    expect(await upload(chunked)).toEqual({ status: 413, body: { error: 'An audio file is at most 5 MB' } });
    expect(await upload(new Uint8Array(Buffer.concat([wav, Buffer.alloc(5 * 1024 * 1024)])))).toEqual({ status: 413, body: { error: 'An audio file is at most 5 MB' } });
    expect(await files().countDocuments({})).toBe(0);
    expect(await s.t.db.collection('flow_audio.chunks').countDocuments({})).toBe(0);
  });

  it('names each file by 12 random bytes: no time, no counter, nothing of the process shared', async () => {
    const [a, b] = [await upload(new Uint8Array(toneWav(1))), await upload(new Uint8Array(toneWav(1)))];
    expect([a.status, b.status]).toEqual([201, 201]);
    const [idA, idB] = [a.body.id as string, b.body.id as string];
    expect(idA).toMatch(/^[a-f0-9]{24}$/);
    // An ObjectId of the driver's would carry the upload's second and, from one process, the same 5 bytes.
    expect(Math.abs(new ObjectId(idA).getTimestamp().getTime() - Date.now())).toBeGreaterThan(86_400_000);
    expect(idA.slice(8, 18)).not.toBe(idB.slice(8, 18));
    expect(Math.abs(parseInt(idA.slice(18), 16) - parseInt(idB.slice(18), 16))).toBeGreaterThan(1);
    for (const id of [idA, idB]) await new GridFSBucket(s.t.db, { bucketName: 'flow_audio' }).delete(new ObjectId(id));
  });

  it('keeps at most 50 files a domain, with 55 uploads at once', async () => {
    const answers = await Promise.all(Array.from({ length: 55 }, (_, i) => upload(new Uint8Array(toneWav(0.1, { hertz: 200 + i })))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(50);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(5);
    expect(refused[0]).toEqual({ status: 409, body: { error: 'A domain keeps at most 50 audio files and 100 MB: a file no flow names is removed a day after its upload' } });
    expect(await files().countDocuments({ 'metadata.domainId': 'shop.test' })).toBe(50);
  });

  it('removes, a day after its upload, a file no flow names, and keeps the one a flow names', async () => {
    const owner = await signedInClient(s.collector.baseUrl, OWNER.username, OWNER.password);
    const named = (await files().find({}, { sort: { uploadDate: 1 }, limit: 1 }).toArray())[0]!._id.toHexString();
    const flow = { name: 'Recorded', start: 'menu', assignedTo: { numbers: ['0800000001'] }, steps: { menu: { kind: 'menu', prompt: { audio: named }, options: [{ key: '1', label: 'Sales', next: 'bye' }], default: 'bye' }, bye: { kind: 'hangup' } } };
    expect((await owner.call('POST', '/domains/shop.test/flows', flow)).status).toBe(201);
    const prompts = new PromptAudio(s.t.db, s.t.c.callFlows);
    expect(await prompts.removeUnused(new Date())).toBe(0); // none a day old yet
    expect(await prompts.removeUnused(new Date(Date.now() + 86_400_000 + 60_000))).toBe(49);
    expect((await files().find({}).toArray()).map((f) => f._id.toHexString())).toEqual([named]);
    expect((await fetch(`${s.collector.baseUrl}/telephony/flow-audio/${named}`)).status).toBe(200);
    expect(await s.t.db.collection('flow_audio.chunks').countDocuments({ files_id: { $ne: new ObjectId(named) } })).toBe(0);
  });
});
