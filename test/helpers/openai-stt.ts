// A loopback stand-in of OpenAI's speech-to-text API, answering `POST /v1/audio/transcriptions` as
// OpenAI's API reference documents it: multipart form fields `file`, `model`, `language`,
// `response_format`, `timestamp_granularities[]`; a `verbose_json` transcription (`task`,
// `language`, `duration`, `text`, `segments`, `words`); errors as `{"error": {"message", "type",
// "param", "code"}}` with their HTTP status (400, 401, 429, 500). `GET /v1/models` lists models.
// A test scripts what the next requests get: an answer, an error, garbage, or no answer at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SttRequest {
  authorization: string | undefined;
  model: string | null;
  language: string | null;
  responseFormat: string | null;
  granularities: string[];
  fileName: string | null;
  fileType: string | null;
  /** The file's audio: a WAV's channels and sample rate, read from its header. */
  channels: number | null;
  sampleRate: number | null;
  bytes: number;
}

export type SttReply =
  | { kind: 'words'; words: string[]; start?: number }
  | { kind: 'error'; status: number; message: string; type?: string; code?: string | null }
  | { kind: 'garbage' }
  | { kind: 'hang' }
  | { kind: 'silence' };

export interface SttStandIn {
  url: string;
  requests: SttRequest[];
  /** What the next requests get, in order; past them, `fallback`. */
  next: SttReply[];
  fallback: (request: SttRequest) => SttReply;
  close(): Promise<void>;
}

/** A verbose_json answer of `words`, a third of a second each from `start`. */
export function verboseJson(words: string[], language: string, start = 0) {
  const timed = words.map((word, i) => ({ word, start: start + i / 3, end: start + (i + 1) / 3 }));
  const text = words.join(' ');
  return {
    task: 'transcribe',
    language,
    duration: start + words.length / 3,
    text,
    segments: words.length ? [{ id: 0, seek: 0, start, end: start + words.length / 3, text: ` ${text}`, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 }] : [],
    words: timed,
    usage: { type: 'duration', seconds: Math.ceil(start + words.length / 3) },
  };
}

export async function startSttStandIn(): Promise<SttStandIn> {
  const hanging = new Set<http.ServerResponse>();
  const standIn: SttStandIn = {
    url: '',
    requests: [],
    next: [],
    fallback: () => ({ kind: 'words', words: ['hello'] }),
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url === '/v1/models') return json(200, { object: 'list', data: [{ id: 'whisper-1', object: 'model', created: 1677532384, owned_by: 'openai-internal' }] });
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return json(404, { error: { message: `Invalid URL (${req.method} ${req.url})`, type: 'invalid_request_error', param: null, code: null } });
    const form = await new Request('http://stand-in/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }).formData();
    const file = form.get('file') as File | null;
    const audio = file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
    const wav = audio.subarray(0, 4).toString('latin1') === 'RIFF';
    const request: SttRequest = {
      authorization: req.headers.authorization,
      model: form.get('model') as string | null,
      language: form.get('language') as string | null,
      responseFormat: form.get('response_format') as string | null,
      granularities: form.getAll('timestamp_granularities[]') as string[],
      fileName: file?.name ?? null,
      fileType: file?.type ?? null,
      channels: wav ? audio.readUInt16LE(22) : null,
      sampleRate: wav ? audio.readUInt32LE(24) : null,
      bytes: audio.length,
    };
    standIn.requests.push(request);
    if (!file) return json(400, { error: { message: "1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)", type: 'invalid_request_error', param: null, code: null } });
    const reply = standIn.next.shift() ?? standIn.fallback(request);
    if (reply.kind === 'hang') return void hanging.add(res);
    if (reply.kind === 'garbage') return res.writeHead(200, { 'content-type': 'application/json' }).end('<html>502 Bad Gateway</html>');
    if (reply.kind === 'error') return json(reply.status, { error: { message: reply.message, type: reply.type ?? 'invalid_request_error', param: null, code: reply.code ?? null } });
    json(200, verboseJson(reply.kind === 'silence' ? [] : reply.words, request.language ?? 'english', reply.kind === 'words' ? (reply.start ?? 0) : 0));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
