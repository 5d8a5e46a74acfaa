// A loopback stand-in of OpenAI's chat completions API, answering `POST /v1/chat/completions` as
// OpenAI's API reference documents it: a `chat.completion` object (`id`, `object`, `created`,
// `model`, `choices: [{index, message: {role, content}, finish_reason}]`, `usage`); errors as
// `{"error": {"message", "type", "param", "code"}}` with their status, a 429 with `Retry-After`.
// A test scripts what the next requests get: a text, an error, or no answer at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  authorization: string | undefined;
  model: string;
  messages: { role: string; content: string }[];
  responseFormat: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } } | undefined;
}

export type ChatReply =
  | { kind: 'text'; content: string }
  | { kind: 'error'; status: number; message: string; type?: string; param?: string | null; retryAfter?: number }
  | { kind: 'hang' };

export interface ChatStandIn {
  /** The base URL with its /v1, as ANALYZE_URL. */
  url: string;
  requests: ChatRequest[];
  next: ChatReply[];
  fallback: (request: ChatRequest) => ChatReply;
  close(): Promise<void>;
}

export async function startChatStandIn(): Promise<ChatStandIn> {
  const hanging = new Set<http.ServerResponse>();
  const standIn: ChatStandIn = { url: '', requests: [], next: [], fallback: () => ({ kind: 'error', status: 500, message: 'no reply scripted' }), close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      const json = JSON.parse(body) as { model: string; messages: ChatRequest['messages']; response_format?: ChatRequest['responseFormat'] };
      const request: ChatRequest = { authorization: req.headers.authorization, model: json.model, messages: json.messages, responseFormat: json.response_format };
      standIn.requests.push(request);
      const reply = standIn.next.shift() ?? standIn.fallback(request);
      if (reply.kind === 'hang') return void hanging.add(res);
      if (reply.kind === 'error') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter !== undefined ? { 'retry-after': String(reply.retryAfter) } : {}) });
        return res.end(JSON.stringify({ error: { message: reply.message, type: reply.type ?? 'invalid_request_error', param: reply.param ?? null, code: null } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `chatcmpl-${standIn.requests.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: json.model, choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return standIn;
}

/** A model's answer, every field present; `over` changes some. */
export function answerOf(over: Record<string, unknown> = {}): string {
  const judged = (answer = 'no', quote = '') => ({ answer, quote });
  return JSON.stringify({
    summary: 'The caller asked about a boiler repair.',
    intent: 'boiler repair',
    outcomes: { appointmentBooked: judged(), quoteGiven: judged(), saleMade: judged(), existingCustomer: judged(), spam: judged(), followUpNeeded: judged() },
    followUp: '',
    leadScore: 40,
    leadScoreReasons: ['asked for a price'],
    sentiment: 'neutral',
    questions: [],
    ...over,
  });
}
