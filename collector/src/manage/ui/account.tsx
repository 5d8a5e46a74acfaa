// The account: the webhook URL and its secret, the call-center key, its carrier, and the delivery log.
import { useState } from 'preact/hooks';
import { BROWSER_CLOCK, when } from './format.ts';
import { api, get } from './api.ts';
import { useAction, useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import { ShownOnce } from './shown-once.tsx';
import { CarrierCard } from './carrier.tsx';

interface Account {
  name: string;
  webhookUrl: string | null;
  webhookSecretSet: boolean;
  webhookEvents: string[];
  callCenterKeySet: boolean;
}

interface Delivery {
  id: string;
  attempt: number;
  at: string;
  kind: string;
  type: string;
  stream: string;
  outcome: string;
  httpStatus: number | null;
  error: string | null;
}


/** The account's pushes beside the call center's, each a box: what a saved change says, and its words. */
const EXTRA_PUSHES = [
  { event: 'call', on: 'each call is pushed too, when it ends and when its lead changes', off: 'calls are not pushed', label: ['call', 'the call as the data API shows it, when it ends and when it becomes a lead or stops being one', ', for your CRM'] },
  { event: 'form', on: 'each form submission is pushed too', off: 'form submissions are not pushed', label: ['form submission that is not spam', 'the submission as the data API shows it', ''] },
  { event: 'text', on: 'each text received or sent is pushed too', off: 'texts are not pushed', label: ['text', 'each text received or sent from a tracking number, with its conversation', ''] },
  { event: 'text-status', on: 'the delivery status of each text sent is pushed too', off: 'text statuses are not pushed', label: ['text status', 'sent, delivered, undelivered or failed, with the carrier\'s error in words', ''] },
  { event: 'analysis', on: 'each call analysis is pushed too', off: 'call analyses are not pushed', label: ['call analysis', 'the summary, outcomes, lead score and sentiment the language model read in a call', ''] },
] as const;

export function AccountScreen() {
  const account = useLoad(() => get<Account>('/account'), []);
  const log = useLoad(() => get<Delivery[]>('/account/deliveries?limit=100'), []);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction(() => {
    account.reload();
    log.reload();
  });
  const error = action.error;
  const run = (work: () => Promise<void>) => {
    setDone(null);
    return action.run(work);
  };
  const a = account.data;
  /** Turns one of the account's extra pushes on or off, the others as they are. */
  const setEvent = (event: string, on: boolean, saidOn: string, saidOff: string) =>
    run(async () => {
      const events = [...a!.webhookEvents.filter((e) => e !== event), ...(on ? [event] : [])];
      await api('PUT', '/account/webhook/events', { events });
      setDone(`Saved: ${on ? saidOn : saidOff}.`);
      account.reload();
    });
  return (
    <section>
      <div class="heading">
        <h1>Account {a?.name}</h1>
      </div>
      {error && <Failure message={error} />}
      {secret && <ShownOnce label={secret.label} value={secret.value} />}
      {a && (
        <div class="card">
          <h2>Webhook</h2>
          <p class="muted">Live pushes to your call center while a call goes on, signed the Standard Webhooks way.</p>
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              const url = String(new FormData(event.target as HTMLFormElement).get('url')).trim();
              void run(async () => {
                const answer = await api<{ secret: string | null }>('PUT', '/account/webhook', { url: url || null });
                if (answer.secret) setSecret({ label: 'Webhook signing secret', value: answer.secret });
                setDone(url ? 'Saved: pushes go to this URL now.' : 'Saved: no more pushes.');
              });
            }}
          >
            <input name="url" type="url" defaultValue={a.webhookUrl ?? ''} placeholder="https://callcenter.example/ringtrail" aria-label="Webhook URL" />
            <button type="submit">Save</button>
            {a.webhookUrl && (
              <button
                type="button"
                onClick={() =>
                  run(async () => {
                    await api('POST', '/account/webhook/test');
                    setDone('Test push queued: its attempt shows in the delivery log below in a moment.');
                    setTimeout(log.reload, 1500);
                  })
                }
              >
                Send a test push
              </button>
            )}
          </form>
          {done && <p class="ok-text" role="status">{done}</p>}
          {EXTRA_PUSHES.map(({ event, on, off, label }) => (
            <label class="check">
              <input type="checkbox" checked={a.webhookEvents.includes(event)} onChange={(e) => setEvent(event, (e.target as HTMLInputElement).checked, on, off)} />
              <span>
                Also push each {label[0]} (type <code>{event}</code>: {label[1]}){label[2]}
              </span>
            </label>
          ))}
          <p>
            Signing secret: {a.webhookSecretSet ? 'set' : 'none'}{' '}
            <button type="button" onClick={() => run(async () => setSecret({ label: 'New webhook signing secret', value: (await api('POST', '/account/webhook/secret')).secret }))}>
              Rotate the secret
            </button>
          </p>
          <p>
            Call-center key (/agent-api): {a.callCenterKeySet ? 'set' : 'none'}{' '}
            <button type="button" onClick={() => run(async () => setSecret({ label: 'New call-center key', value: (await api('POST', '/account/keys/call-center')).key }))}>
              {a.callCenterKeySet ? 'Rotate' : 'Make'} the key
            </button>
          </p>
        </div>
      )}
      <CarrierCard />
      <div class="card flush">
        <h2>Delivery log</h2>
        {log.data && !log.data.length && <p class="muted">Nothing sent yet.</p>}
        {log.data && log.data.length > 0 && (
          <table>
            <thead><tr><th>When</th><th>What</th><th>Stream</th><th>Attempt</th><th>Outcome</th><th></th></tr></thead>
            <tbody>
              {log.data.map((d) => (
                <tr>
                  <td class="nowrap">{when(d.at, BROWSER_CLOCK)}</td>
                  <td>{d.kind} {d.type}</td>
                  <td class="mono">{d.stream}</td>
                  <td class="num">{d.attempt}</td>
                  <td><span class={`status ${d.outcome}`}>{d.outcome}</span> {d.httpStatus ?? ''} {d.error ?? ''}</td>
                  <td>{d.kind === 'webhook' && <button type="button" onClick={() => run(async () => void (await api('POST', `/account/deliveries/${encodeURIComponent(d.id)}/resend`)))}>Send again</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
