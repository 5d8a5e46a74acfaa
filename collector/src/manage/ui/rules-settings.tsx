// A domain's rules and the account's tags, on the settings page (owners and admins): each rule in
// order with what it does, switched on or off, previewed over the last 30 days, edited or deleted;
// a new rule written one condition and one action a line (rule-text.ts); a new tag and its colour.
import { useEffect, useState } from 'preact/hooks';
import { api, get } from './api.ts';
import { TagChips, useAccountTags } from './call-marks.tsx';
import { when, type Clock } from './format.ts';
import { useLoad } from './hooks.ts';
import { actionText, conditionText, parseActions, parseConditions, type Action, type Condition } from './rule-text.ts';

interface Rule {
  id: string;
  name: string;
  moment: 'call-ended' | 'transcript-ready' | 'analysis-ready' | 'form-sent' | 'text-received';
  match: 'all' | 'any';
  conditions: Condition[];
  actions: Action[];
  enabled: boolean;
  /** Recipients of its mails who left them by the mail's link. */
  unsubscribed?: string[];
}

interface Preview {
  checked: number;
  matched: number;
  matches: { kind: string; id: number; at: string; phone: string | null; source: string | null; actions: string[] }[];
}

const MOMENTS: Record<Rule['moment'], string> = { 'call-ended': 'a call ended', 'transcript-ready': "a call's transcript is ready", 'analysis-ready': 'the language model has read a call', 'form-sent': 'a form was sent', 'text-received': 'a text was received' };
const bodyOf = ({ name, moment, match, conditions, actions, enabled }: Rule) => ({ name, moment, match, conditions, actions, enabled });

export function RulesCard({ path, clock }: { path: string; clock: Clock }) {
  const rules = useLoad(() => get<{ rules: Rule[] }>(`${path}/rules`), [path]);
  const tags = useAccountTags();
  const [editing, setEditing] = useState<Rule | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [preview, setPreview] = useState<{ rule: string; answer: Preview } | null>(null);
  /** Whether the work was done: a refusal keeps what the person typed. */
  const act = async (work: () => Promise<unknown>, done: string): Promise<boolean> => {
    try {
      await work();
      setMessage({ ok: true, text: done });
      rules.reload();
      tags.reload();
      return true;
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
      return false;
    }
  };
  async function save(event: Event) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const f = new FormData(form);
    const body = { name: String(f.get('name') ?? ''), moment: String(f.get('moment')), match: String(f.get('match')), conditions: parseConditions(String(f.get('conditions') ?? '')), actions: parseActions(String(f.get('actions') ?? '')), enabled: editing?.enabled ?? true };
    if (!(await act(() => (editing ? api('PUT', `${path}/rules/${editing.id}`, body) : api('POST', `${path}/rules`, body)), editing ? `Rule ${body.name} saved.` : `Rule ${body.name} made: it runs from now on.`))) return;
    if (!editing) form.reset();
    setEditing(null);
  }
  async function newTag(event: Event) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const f = new FormData(form);
    await act(() => api('POST', '/account/tags', { name: String(f.get('tag') ?? ''), colour: String(f.get('colour')) }), 'Tag made.');
    form.reset();
  }
  return (
    <div class="card settings" data-testid="rules-settings">
      <h2>Rules</h2>
      <p class="muted">Rules tag, value and qualify calls and forms as they come, in this order. What a person sets by hand on a call (a verdict, a value, a tag taken off) is never changed by a rule. A rule on texts received tells (chat, push, mail): a text keeps no marks.</p>
      <ul class="rule-list">
        {(rules.data?.rules ?? []).map((rule) => (
          <li data-testid="rule">
            <div class="rule-head">
              <strong>{rule.name}</strong>
              <span class="muted">when {MOMENTS[rule.moment]}{rule.conditions.length ? `, if ${rule.match === 'all' ? 'all' : 'any'} of:` : ', always'}</span>
              <label class="check">
                <input type="checkbox" checked={rule.enabled} onChange={() => act(() => api('PUT', `${path}/rules/${rule.id}`, { ...bodyOf(rule), enabled: !rule.enabled }), rule.enabled ? `Rule ${rule.name} switched off.` : `Rule ${rule.name} switched on.`)} /> on
              </label>
              <button type="button" onClick={() => act(async () => setPreview({ rule: rule.name, answer: await api<Preview>('POST', `${path}/rules/${rule.id}/preview`) }), `Preview of ${rule.name}: nothing was changed.`)}>Preview</button>
              <button type="button" onClick={() => setEditing(rule)}>Edit</button>
              <button type="button" class="danger" onClick={() => act(() => api('DELETE', `${path}/rules/${rule.id}`), `Rule ${rule.name} deleted.`)}>Delete</button>
            </div>
            <div class="mono small">{rule.conditions.map(conditionText).join('; ')}</div>
            <div>
              then {rule.actions.map((a) => actionText(a)).join(', ')}
            </div>
            {(rule.unsubscribed?.length ?? 0) > 0 && <div class="muted small">Unsubscribed from its mails: {rule.unsubscribed!.join(', ')}</div>}
            {rule.moment !== 'text-received' && <PastCalls path={`${path}/rules/${rule.id}`} act={act} />}
          </li>
        ))}
      </ul>
      {rules.data && !rules.data.rules.length && <p class="muted">No rule yet.</p>}
      {preview && (
        <div data-testid="rule-preview">
          <p>
            <strong>{preview.rule}</strong> over the last 30 days: {preview.answer.matched} of {preview.answer.checked} matched.
          </p>
          <ul>
            {preview.answer.matches.slice(0, 20).map((m) => (
              <li>
                {m.kind} {m.id}, {when(m.at, clock)}, {m.phone ?? 'no number'}, {m.source ?? 'unattributed'}: {m.actions.length ? m.actions.join(', ') : <span class="muted">nothing to change</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      <form onSubmit={save} key={editing?.id ?? 'new'} data-testid="rule-form">
        <h3>{editing ? `Edit ${editing.name}` : 'A new rule'}</h3>
        <label>
          Name <input name="name" required maxLength={80} defaultValue={editing?.name ?? ''} />
        </label>
        <label>
          When{' '}
          <select name="moment" defaultValue={editing?.moment ?? 'call-ended'}>
            {Object.entries(MOMENTS).map(([value, words]) => (
              <option value={value}>{words}</option>
            ))}
          </select>
        </label>
        <label>
          If{' '}
          <select name="match" defaultValue={editing?.match ?? 'all'}>
            <option value="all">all the conditions hold</option>
            <option value="any">any condition holds</option>
          </select>
        </label>
        <label>
          Conditions, one a line (none: always)
          <textarea name="conditions" rows={3} placeholder={'duration atLeast 60\ncampaign is spring\nkeyPhrase said booked caller\ndayOfWeek in mon,tue\ntimeOfDay between 18:00-08:00'} defaultValue={(editing?.conditions ?? []).map(conditionText).join('\n')} />
        </label>
        <label>
          Actions, one a line
          <textarea name="actions" rows={3} required placeholder={'tag Booked\nvalue 120\nverdict lead\nchat https://hooks.slack.com/services/…\npush\nmail members ada@acme.example address sales@partner.example'} defaultValue={(editing?.actions ?? []).map((a) => actionText(a, true)).join('\n')} />
        </label>
        <p class="muted small">The fields and words: see docs/rules.md (sourceClass, source, medium, campaign, keyword, landingPage, trackingNumber, pool, duration, answered, firstCall, hadLead, callerCountry, callerArea, dayOfWeek, timeOfDay, keyPhrase, outcome, leadScore, sentiment, answer, formField; for texts: words is or contains).</p>
        <button type="submit">{editing ? 'Save the rule' : 'Make the rule'}</button>
        {editing && (
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        )}
      </form>
      {message && <p class={message.ok ? 'ok-text' : 'error'} role="status">{message.text}</p>}
      <h3>Tags</h3>
      <p>
        <TagChips names={(tags.data?.tags ?? []).map((t) => t.name)} tags={tags.data?.tags ?? []} />
        {tags.data && !tags.data.tags.length && <span class="muted">No tag yet.</span>}
      </p>
      <form class="inline" onSubmit={newTag}>
        <input name="tag" required maxLength={40} placeholder="A new tag" aria-label="A new tag" /> <input name="colour" type="color" defaultValue="#2563eb" aria-label="Its colour" /> <button type="submit">Make the tag</button>
      </form>
    </div>
  );
}

interface Run {
  id: string;
  state: 'running' | 'done' | 'undoing' | 'undone';
  checked: number;
  changed: number;
  capped: boolean;
  restored: number;
  by: string;
}

/** "Apply to past calls" over chosen days, in the background; the latest run, and its undo. */
function PastCalls({ path, act }: { path: string; act: (work: () => Promise<unknown>, done: string) => Promise<unknown> }) {
  const runs = useLoad(() => get<{ runs: Run[] }>(`${path}/runs`), [path]);
  const latest = runs.data?.runs[0];
  // A run goes on in the background: looked at again until it ends.
  useEffect(() => {
    if (latest?.state !== 'running' && latest?.state !== 'undoing') return;
    const timer = setTimeout(runs.reload, 1000);
    return () => clearTimeout(timer);
  }, [latest?.id, latest?.state, latest?.checked]);
  const today = new Date().toISOString().slice(0, 10);
  async function apply(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    await act(() => api('POST', `${path}/apply`, { from: String(f.get('from')), to: String(f.get('to')) }), 'Applying the rule to past calls, in the background.');
    runs.reload();
  }
  return (
    <form class="inline" onSubmit={apply} data-testid="past-calls">
      <span class="muted">Apply to past calls from</span> <input type="date" name="from" required aria-label="From" defaultValue={today} /> <span class="muted">to</span> <input type="date" name="to" required aria-label="To" defaultValue={today} /> <button type="submit">Apply</button>{' '}
      {latest && (
        <span data-testid="run">
          Last run: {latest.state}, {latest.checked} tested, {latest.changed} changed{latest.capped ? ' (stopped at the limit)' : ''}
          {latest.state === 'undone' && `, ${latest.restored} put back`}{' '}
          {latest.state === 'done' && (
            <button type="button" onClick={() => act(async () => { await api('POST', `${path}/runs/${latest.id}/undo`); runs.reload(); }, 'Undoing the run, in the background.')}>
              Undo
            </button>
          )}
        </span>
      )}
    </form>
  );
}
