// The one client of the owner's language model (issue 66): OpenAI's chat completions through the
// official `openai` library pointed at ANALYZE_URL (Ollama, llama.cpp's server, vLLM, LocalAI, or a
// hosted OpenAI-compatible service). The answer is asked as structured output (a JSON schema) and,
// from a server that refuses it, as JSON mode; either way it is checked with zod, and an answer that
// does not fit is asked once more with what was wrong. The library's own retries are off: the
// outbox retries a call's analysis with back-off, a 429 after its Retry-After.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { answerJsonSchema, modelAnswer, type ModelAnswer } from './answer.ts';

export interface AnalyzeSettings {
  /** The server's base URL, with its `/v1` (`http://127.0.0.1:11434/v1`). */
  url: string;
  apiKey?: string;
  model: string;
  /** How long one answer may take. */
  timeoutMs?: number;
}

export const DEFAULT_ANALYZE_TIMEOUT_MS = 120_000;

/** Why the model gave no answer, whether trying again can help, and when (a 429's Retry-After). */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export interface ModelReply {
  answer: ModelAnswer;
  /** The model's text as it came (the Settings card's "Try it" shows it, as text). */
  raw: string;
  format: 'json_schema' | 'json_object';
}

/** Keywords a structured-output server may refuse in a schema (OpenAI's strict mode does): the
 * bounds are checked by zod on the answer instead. */
const UNSUPPORTED = new Set(['$schema', 'maxLength', 'minLength', 'minimum', 'maximum', 'maxItems', 'minItems', 'pattern', 'format']);

function portable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portable);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !UNSUPPORTED.has(k)).map(([k, v]) => [k, portable(v)]));
}

export class ModelClient {
  private readonly client: OpenAI;
  /** JSON mode once the server refused a schema: asked so from then on. */
  private format: ModelReply['format'] = 'json_schema';

  constructor(readonly settings: AnalyzeSettings) {
    this.client = new OpenAI({ baseURL: settings.url.replace(/\/$/, ''), apiKey: settings.apiKey || 'none', maxRetries: 0, timeout: settings.timeoutMs ?? DEFAULT_ANALYZE_TIMEOUT_MS });
  }

  async ask(system: string, user: string, signal?: AbortSignal): Promise<ModelReply> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const first = await this.complete(messages, signal);
    const fit = fitted(first);
    if (fit.answer) return { answer: fit.answer, raw: first, format: this.format };
    // Once more, told what did not fit.
    const again = await this.complete([...messages, { role: 'assistant', content: first }, { role: 'user', content: `That answer does not fit the schema: ${fit.problem}. Answer again with the JSON object only.` }], signal);
    const second = fitted(again);
    if (second.answer) return { answer: second.answer, raw: again, format: this.format };
    throw new AnalysisFailure(`the model's answer does not fit, twice: ${second.problem}`.slice(0, 500), true);
  }

  private async complete(messages: ChatCompletionMessageParam[], signal?: AbortSignal): Promise<string> {
    try {
      return await this.once(messages, signal);
    } catch (err) {
      // A server without structured output (400 naming it): JSON mode from now on.
      if (this.format === 'json_schema' && err instanceof APIError && err.status === 400 && /response_format|json_schema|schema/i.test(err.message)) {
        this.format = 'json_object';
        try {
          return await this.once(messages, signal);
        } catch (again) {
          throw failureOf(again);
        }
      }
      throw failureOf(err);
    }
  }

  private async once(messages: ChatCompletionMessageParam[], signal?: AbortSignal): Promise<string> {
    const response_format = this.format === 'json_schema' ? ({ type: 'json_schema', json_schema: { name: 'call_analysis', strict: true, schema: portable(answerJsonSchema()) as Record<string, unknown> } } as const) : ({ type: 'json_object' } as const);
    const completion = await this.client.chat.completions.create({ model: this.settings.model, messages, temperature: 0, response_format }, signal ? { signal } : {});
    const content = completion.choices[0]?.message?.content;
    if (typeof content !== 'string') throw new AnalysisFailure('the model answered no text', true);
    return content;
  }
}

/** The text as the answer, or what is wrong with it. */
function fitted(text: string): { answer: ModelAnswer; problem?: never } | { answer?: never; problem: string } {
  let json: unknown;
  try {
    // Some servers wrap JSON mode's answer in a code fence.
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { problem: 'it is not JSON' };
  }
  const parsed = modelAnswer.safeParse(json);
  if (parsed.success) return { answer: parsed.data };
  return { problem: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'the answer'}: ${i.message}`).join('; ') };
}

/** What the library threw, as a failure: a 4xx but 408 and 429 is for good (the settings are
 * wrong), the rest may pass; a 429 says when to try again. */
function failureOf(err: unknown): AnalysisFailure {
  if (err instanceof AnalysisFailure) return err;
  if (err instanceof APIUserAbortError) return new AnalysisFailure('stopped', true);
  if (err instanceof APIConnectionTimeoutError) return new AnalysisFailure('the model did not answer in time', true);
  if (err instanceof APIConnectionError) return new AnalysisFailure(`the model cannot be reached: ${(err.cause as Error | undefined)?.message ?? err.message}`, true);
  if (err instanceof APIError && typeof err.status === 'number') {
    const retry = err.status >= 500 || err.status === 429 || err.status === 408;
    const after = Number(err.headers?.get?.('retry-after'));
    const said = (err.error as { message?: string } | undefined)?.message ?? err.message;
    return new AnalysisFailure(`the model answered ${err.status}: ${said}`.slice(0, 500), retry, err.status === 429 && Number.isFinite(after) && after >= 0 ? after * 1000 : null);
  }
  return new AnalysisFailure(`the model's answer could not be read: ${(err as Error).message}`.slice(0, 500), true);
}
