// A domain's transcripts: which engine the collector uses and whether it answers, whether recorded
// calls are transcribed and in which language (with the way out when the engine does not speak it),
// and the key phrases spotted, one label a line: `booked (caller): book an appointment; schedule a visit`.
import { useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { useLoad } from './hooks.ts';
import type { DomainView } from './domain-view.ts';

interface EngineStatus {
  configured: boolean;
  engine: { name: string; model: string; englishOnly: boolean; answers: boolean; error: string | null } | null;
  language: string;
  refusal: string | null;
}

type KeyPhrase = DomainView['keyPhrases'][number];
const SPEAKERS = ['caller', 'agent', 'any'];

/** The phrases as the text box shows them. */
export const keyPhrasesText = (list: KeyPhrase[]) => list.map((k) => `${k.label}${k.speaker === 'any' ? '' : ` (${k.speaker})`}: ${k.phrases.join('; ')}`).join('\n');

/** The text box read back; the server says what is wrong with what it reads. */
export function parseKeyPhrases(text: string): KeyPhrase[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      const head = colon < 0 ? line : line.slice(0, colon);
      const match = /^(.*?)\s*\((\w+)\)\s*$/.exec(head);
      const speaker = match && SPEAKERS.includes(match[2]!.toLowerCase()) ? (match[2]!.toLowerCase() as KeyPhrase['speaker']) : 'any';
      const label = (match && SPEAKERS.includes(match[2]!.toLowerCase()) ? match[1]! : head).trim();
      const phrases = (colon < 0 ? '' : line.slice(colon + 1)).split(';').map((p) => p.trim()).filter(Boolean);
      return { label, phrases, speaker };
    });
}

export function TranscriptsCard({ path, domain, saved }: { path: string; domain: DomainView; saved: () => void }) {
  const status = useLoad(() => get<EngineStatus>(`${path}/transcription`), [path, domain.transcription.language, domain.country]);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const language = String(f.get('language') ?? '').trim();
    try {
      await api('PATCH', path, { transcription: { enabled: f.get('transcribe') === 'on', language: language || null }, keyPhrases: parseKeyPhrases(String(f.get('keyPhrases') ?? '')) });
      setMessage({ ok: true, text: 'Saved. Transcripts already made are spotted again with these phrases.' });
      saved();
      status.reload();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }
  const engine = status.data?.engine;
  return (
    <form class="card settings" onSubmit={submit} data-testid="transcripts-settings">
      <h2>Transcripts</h2>
      {status.data && !status.data.configured && <p class="warn-text">{status.data.refusal}</p>}
      {engine && (
        <p data-testid="engine-status">
          Engine: <strong>{engine.name === 'local' ? 'the bundled engine, on this server' : engine.name}</strong>, model {engine.model}{' '}
          {engine.answers ? <span class="status success">answers</span> : <span class="status failed" title={engine.error ?? ''}>does not answer</span>}
          {!engine.answers && engine.error && <span class="muted"> {engine.error}</span>}
        </p>
      )}
      {status.data?.refusal && status.data.configured && <p class="warn-text" data-testid="language-refusal">{status.data.refusal}.</p>}
      <label class="check">
        <input type="checkbox" name="transcribe" defaultChecked={domain.transcription.enabled} /> Transcribe recorded calls (made on this server's engine, kept with the recording, deleted with it)
      </label>
      <label>
        Language (two letters; empty: the country's, now {status.data?.language ?? '…'})
        <input name="language" maxLength={2} size={3} defaultValue={domain.transcription.language ?? ''} placeholder={status.data?.language ?? ''} />
      </label>
      <label>
        Key phrases, one label a line: <code>label (caller|agent): phrase; another phrase</code>
        <textarea name="keyPhrases" rows={4} placeholder={'booked (caller): book an appointment; schedule a visit\nprice: how much; what does it cost'}>{keyPhrasesText(domain.keyPhrases)}</textarea>
      </label>
      <p class="muted">Card numbers and the digits said after "card", "CVV" or "security code" are never kept: they read [redacted].</p>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <button type="submit">Update transcripts</button>
    </form>
  );
}
