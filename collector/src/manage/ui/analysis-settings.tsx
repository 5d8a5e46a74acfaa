// A domain's call analysis (issue 66): which server and model read its calls (or how to set one),
// whether its transcribed calls are read, its own questions (one a line, at most 10), and "Try it":
// the model reads a sample call and its answer is shown as it came, as text.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { useLoad } from './hooks.ts';

interface AnalysisStatus {
  configured: boolean;
  server: string | null;
  model: string | null;
  refusal?: string;
  enabled: boolean;
  questions: string[];
}

interface Tried {
  server: string;
  model: string;
  seconds: number;
  format: string;
  transcript: string;
  raw: string;
  analysis: { summary: string; leadScore: number; sentiment: string };
}

export function AnalysisSettingsCard({ path }: { path: string }) {
  const status = useLoad(() => get<AnalysisStatus>(`${path}/analysis`), [path]);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [tried, setTried] = useState<Tried | null>(null);
  const [trying, setTrying] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const questions = String(f.get('questions') ?? '').split('\n').map((q) => q.trim()).filter(Boolean);
    try {
      await api('PATCH', path, { analysis: { enabled: f.get('analyse') === 'on', questions } });
      setMessage({ ok: true, text: 'Saved. Calls transcribed from now on are read with these questions.' });
      status.reload();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }
  async function tryIt() {
    setTrying(true);
    setTried(null);
    setMessage(null);
    try {
      setTried(await api<Tried>('POST', `${path}/analysis/try`));
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    } finally {
      setTrying(false);
    }
  }
  const s = status.data;
  // Shown once loaded: a form made again after someone typed in it would lose what they typed.
  if (!s) return <div class="card settings" data-testid="analysis-settings"><h2>Call analysis</h2>{status.error ? <p class="error">{status.error}</p> : <p class="muted">Loading…</p>}</div>;
  return (
    <form class="card settings" onSubmit={submit} data-testid="analysis-settings">
      <h2>Call analysis</h2>
      {!s.configured && <p class="warn-text">{s.refusal}</p>}
      {s.configured && (
        <p data-testid="model-status">
          Read by <strong>{s.model}</strong> at <code>{s.server}</code>: the transcripts are sent there, and nowhere else.
        </p>
      )}
      <label class="check">
        <input type="checkbox" name="analyse" defaultChecked={s.enabled} /> Read each transcribed call and voicemail: a summary, the outcomes with their quotes, a lead score and the caller's sentiment
      </label>
      <label>
        Your own questions, one a line (at most 10), each answered yes, no or unknown
        <textarea name="questions" rows={3} placeholder="Did the caller ask for emergency service?">{s.questions.join('\n')}</textarea>
      </label>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <div class="actions">
        <button type="submit">Update call analysis</button>
        {s.configured && (
          <button type="button" onClick={() => void tryIt()} disabled={trying} data-testid="analysis-try">
            {trying ? 'The model is reading a sample call…' : 'Try it on a sample call'}
          </button>
        )}
      </div>
      {tried && (
        <div data-testid="analysis-tried">
          <p>
            {tried.model} answered in {tried.seconds} s ({tried.format === 'json_schema' ? 'structured output' : 'JSON mode'}): lead score {tried.analysis.leadScore}, {tried.analysis.sentiment}. {tried.analysis.summary}
          </p>
          <details>
            <summary>The sample call</summary>
            <pre class="raw">{tried.transcript}</pre>
          </details>
          <p class="muted small">The model's answer, as it came:</p>
          <pre class="raw" data-testid="analysis-raw">{tried.raw}</pre>
        </div>
      )}
    </form>
  );
}
