// "Call" on a person, a call or a conversation (issue 68): the member's own phone rings first, then
// the person is dialled from the tracking number. Asks once for the member's phone when their profile
// has none (it is kept there). Agents and above.
import { useState } from 'preact/hooks';
import { api, type ApiError } from './api.ts';
import { may, useWho } from './who.ts';

export function CallBackButton({ domain, personId }: { domain: string; personId: number }) {
  const who = useWho();
  const [askPhone, setAskPhone] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (!may.answerLeads(who)) return null;
  async function call(phone?: string) {
    try {
      await api('POST', `/domains/${encodeURIComponent(domain)}/people/${personId}/call`, phone ? { phone } : {});
      setAskPhone(false);
      setMessage({ ok: true, text: 'Your phone rings: pick up, and the person is called from the tracking number.' });
    } catch (err) {
      const text = (err as Error).message;
      // The API names the missing field: the member's phone (the screen says it in words).
      if (((err as ApiError).said ?? text).startsWith('phone:')) setAskPhone(true);
      setMessage({ ok: false, text });
    }
  }
  return (
    <span class="call-back" data-testid="call-back">
      <button type="button" onClick={() => void call()}>
        Call
      </button>
      {askPhone && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void call(String(new FormData(e.target as HTMLFormElement).get('phone') ?? ''));
          }}
        >
          <label>
            Your phone, rung first
            <input name="phone" type="tel" autocomplete="tel" required />
          </label>
          <button type="submit">Ring me</button>
        </form>
      )}
      {message && (
        <span role="status" class={message.ok ? 'ok-text' : 'error'}>
          {message.text}
        </span>
      )}
    </span>
  );
}
