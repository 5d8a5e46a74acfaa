// The Call flows screen (owners and admins): the domain's flows and the numbers each answers; a
// flow made from a template, edited step by step as a tree of cards, assigned to pools and numbers,
// and tested: a time, a caller and the keys pressed give the path and what each phone would hear,
// nothing dialled.
import { useState } from 'preact/hooks';
import { api, get, upload } from './api.ts';
import { StepCard } from './flow-steps.tsx';
import { branchesOf, newStep, stepsInOrder, templates, type Flow, type Step, type StepKind } from './flow-templates.ts';
import { useLoad } from './hooks.ts';
import { Failure } from './layout.tsx';
import type { Route } from './route.ts';

interface Member {
  username: string;
  role: string;
  hasPhone: boolean;
  available: boolean;
}

interface Simulation {
  path: { step: string; name?: string; kind: string; outcome: string }[];
  heard: { step: string | null; say?: string; play?: string }[];
  rings: { step: string; strategy: string; ringSeconds: number; legs: { name: string; number: string; hears: string | null }[]; skipped: string[] }[];
  ends: string;
  when: { local: string; timeZone: string };
}

const bodyOf = (flow: Flow) => ({ name: flow.name, start: flow.start, steps: flow.steps, assignedTo: flow.assignedTo });
const assignedText = (f: Flow, pools: number[]) =>
  [f.assignedTo.domain ? 'the whole domain' : '', ...f.assignedTo.pools.filter((p) => pools.includes(p)).map((p) => `pool ${p}`), ...f.assignedTo.numbers].filter(Boolean).join(', ') || 'no number yet';

export function FlowsScreen({ route }: { route: Route }) {
  const path = `/domains/${encodeURIComponent(route.domain!)}`;
  const list = useLoad(() => get<{ flows: (Flow & { id: string })[]; members: Member[]; timeZone: string }>(`${path}/flows`), [path]);
  const domain = useLoad(() => get<{ pools: { type: number; usage: string }[] }>(path), [path]);
  const [editing, setEditing] = useState<Flow | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const members = list.data?.members ?? [];
  const ringable = members.filter((m) => m.hasPhone).map((m) => m.username);
  const pools = (domain.data?.pools ?? []).map((p) => p.type);
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setMessage({ ok: true, text: done });
      list.reload();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  };
  return (
    <section>
      <div class="heading">
        <h1>Call flows</h1>
      </div>
      <p class="muted">Where calls go: opening hours, menus, ring groups and voicemail. A number no flow names is forwarded to its destination as before.</p>
      {list.error && <Failure message={list.error} />}
      {message && (message.ok ? <p class="ok-text" role="status">{message.text}</p> : <Failure message={message.text} />)}
      {!editing && (
        <>
          <div class="card flush">
            <table data-testid="flows">
              <thead>
                <tr>
                  <th>Flow</th>
                  <th>Answers</th>
                  <th>Steps</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {(list.data?.flows ?? []).map((f) => (
                  <tr>
                    <td data-label="Flow">{f.name}</td>
                    <td data-label="Answers">{assignedText(f, pools)}</td>
                    <td data-label="Steps">{Object.keys(f.steps).length}</td>
                    <td>
                      <button type="button" onClick={() => setEditing(structuredClone(f))}>Edit</button>{' '}
                      <button type="button" class="danger" onClick={() => confirm(`Delete the flow ${f.name}? Its numbers are forwarded to their destination again.`) && act(() => api('DELETE', `${path}/flows/${f.id}`), `Flow ${f.name} deleted.`)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
                {list.data && !list.data.flows.length && (
                  <tr>
                    <td colSpan={4} class="muted">No call flow yet: start from a template.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <div class="card">
            <h2>New flow from a template</h2>
            <div class="row">
              {templates(ringable).map((t) => (
                <button type="button" onClick={() => setEditing(structuredClone(t.flow))}>{t.name}</button>
              ))}
            </div>
          </div>
        </>
      )}
      {editing && (
        <FlowEditor
          key={editing.id ?? 'new'}
          flow={editing}
          members={members}
          pools={pools}
          path={path}
          timeZone={list.data?.timeZone ?? ''}
          close={() => setEditing(null)}
          save={(flow) => act(async () => setEditing({ ...flow, ...(flow.id ? await api('PUT', `${path}/flows/${flow.id}`, bodyOf(flow)) : await api('POST', `${path}/flows`, bodyOf(flow))) }), `Flow ${flow.name} saved.`)}
        />
      )}
    </section>
  );
}

/** The kinds whose new step leads on to another. */
const BRANCHING: StepKind[] = ['schedule', 'menu', 'ring', 'route'];

function FlowEditor({ flow: initial, members, pools, path, timeZone, close, save }: { flow: Flow; members: Member[]; pools: number[]; path: string; timeZone: string; close: () => void; save: (flow: Flow) => void }) {
  const [flow, setFlow] = useState<Flow>(initial);
  const ringable = members.filter((m) => m.hasPhone).map((m) => m.username);
  /** Every change from the flow as it is by then: an upload or a new step lands on the latest edits. */
  const setStep = (name: string, update: (step: Step) => Step | null) =>
    setFlow((f) => {
      const steps = { ...f.steps };
      const step = steps[name] ? update(steps[name]!) : null;
      if (step) steps[name] = step;
      else delete steps[name];
      return { ...f, steps };
    });
  /** A new voicemail step, named step2, step3…, for a branch to lead to. */
  const branch = () => {
    let n = Object.keys(flow.steps).length + 1;
    while (flow.steps[`step${n}`]) n++;
    const name = `step${n}`;
    setFlow((f) => ({ ...f, steps: { ...f.steps, [name]: newStep('voicemail', f.start, ringable) } }));
    return name;
  };
  /** A step of another kind keeps its place in the tree and its name: its branches lead where the
   * old step's first one led (a step that led nowhere gets a new step to lead to), never back to the
   * start, which would make a loop the flow cannot be saved with. */
  const changeKind = (name: string, kind: StepKind) => {
    const old = flow.steps[name]!;
    const next = branchesOf(old)[0]?.name ?? (BRANCHING.includes(kind) ? branch() : name);
    setStep(name, () => ({ ...newStep(kind, next, ringable), ...(old.name ? { name: old.name } : {}) }));
  };
  return (
    <div data-testid="flow-editor">
      <div class="card settings">
        <div class="row">
          <label>
            Name
            <input value={flow.name} onInput={(e) => setFlow({ ...flow, name: (e.target as HTMLInputElement).value })} />
          </label>
        </div>
        <h2>Answers calls to</h2>
        <label class="check">
          <input type="checkbox" checked={flow.assignedTo.domain} onChange={(e) => setFlow({ ...flow, assignedTo: { ...flow.assignedTo, domain: (e.target as HTMLInputElement).checked } })} /> every number of the domain no other flow names
        </label>
        <div class="row">
          {pools.map((type) => (
            <label class="check">
              <input
                type="checkbox"
                data-testid={`assign-pool-${type}`}
                checked={flow.assignedTo.pools.includes(type)}
                onChange={(e) => setFlow({ ...flow, assignedTo: { ...flow.assignedTo, pools: (e.target as HTMLInputElement).checked ? [...flow.assignedTo.pools, type] : flow.assignedTo.pools.filter((p) => p !== type) } })}
              />{' '}
              pool {type}
            </label>
          ))}
        </div>
        <label>
          Single numbers (online or offline), commas between
          <input value={flow.assignedTo.numbers.join(', ')} onChange={(e) => setFlow({ ...flow, assignedTo: { ...flow.assignedTo, numbers: (e.target as HTMLInputElement).value.split(',').map((n) => n.trim()).filter(Boolean) } })} />
        </label>
      </div>
      {stepsInOrder(flow).map(({ name, depth }) => (
        <div class="flow-indent" style={{ marginLeft: `${Math.min(depth, 4) * 1.25}rem` }}>
          <StepCard
            name={name}
            step={flow.steps[name]!}
            names={Object.keys(flow.steps)}
            members={members}
            isStart={name === flow.start}
            change={(update) => setStep(name, update)}
            changeKind={(kind: StepKind) => changeKind(name, kind)}
            remove={() => setStep(name, () => null)}
            branch={branch}
            upload={async (file) => (await upload<{ id: string }>(`${path}/flow-audio`, file)).id}
          />
        </div>
      ))}
      <div class="row">
        <button type="button" class="primary" onClick={() => save(flow)}>Save the flow</button>
        <button type="button" onClick={close}>Back to the flows</button>
      </div>
      {flow.id ? <Simulator path={`${path}/flows/${flow.id}`} members={members} timeZone={timeZone} /> : <p class="muted">Save the flow to test it.</p>}
    </div>
  );
}

function Simulator({ path, members, timeZone }: { path: string; members: Member[]; timeZone: string }) {
  const [answer, setAnswer] = useState<Simulation | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function run(event: Event) {
    event.preventDefault();
    const f = new FormData(event.target as HTMLFormElement);
    const at = String(f.get('at') ?? '');
    setError(null);
    try {
      setAnswer(
        await api<Simulation>('POST', `${path}/simulate`, {
          // Read on the domain's clock, whatever the browser's: the hours a flow names are the domain's.
          ...(at ? { localAt: at } : {}),
          caller: String(f.get('caller') ?? '') || null,
          keys: String(f.get('keys') ?? '').split(/[\s,]+/).filter(Boolean),
          answeredBy: String(f.get('answeredBy') ?? '') || null,
          ...(f.get('source') ? { source: String(f.get('source')) } : {}),
        }),
      );
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <form class="card settings" data-testid="simulator" onSubmit={run}>
      <h2>Test this flow</h2>
      <p class="muted">A call at the time you choose, from the caller you choose, pressing the keys you give. Nothing is dialled.</p>
      <div class="row">
        <label>
          When, on the domain's clock{timeZone ? ` (${timeZone})` : ''}
          <input type="datetime-local" name="at" />
        </label>
        <label>
          Caller
          <input name="caller" placeholder="06 12 34 56 78" />
        </label>
        <label>
          Keys pressed, in order
          <input name="keys" placeholder="1 2" />
        </label>
        <label>
          Who picks up
          <select name="answeredBy">
            <option value="">nobody</option>
            {members.map((m) => (
              <option value={m.username}>{m.username}</option>
            ))}
          </select>
        </label>
        <label>
          Came from
          <select name="source">
            <option value="">no visit</option>
            <option value="paid:google">a Google ad</option>
            <option value="organic:google.com">a Google search</option>
            <option value="direct">the site directly</option>
          </select>
        </label>
      </div>
      <button type="submit" class="primary">Test this flow</button>
      {error && <Failure message={error} />}
      {answer && (
        <div data-testid="simulation">
          <p class="muted" data-testid="simulated-at">
            A call at {answer.when.local}, {answer.when.timeZone} time
          </p>
          <ol class="flow-path">
            {answer.path.map((p) => (
              <li>
                <strong title={p.step}>{p.name ?? p.step}</strong> {p.outcome}
              </li>
            ))}
          </ol>
          {answer.heard.length > 0 && <p>The caller hears: {answer.heard.map((h) => `“${h.say ?? `audio ${h.play}`}”`).join(', then ')}</p>}
          {answer.rings.map((r) => (
            <p>
              {r.step} rings ({r.strategy}, {r.ringSeconds} s each): {r.legs.map((l) => `${l.name} at ${l.number}${l.hears ? `, who hears “${l.hears}”` : ''}`).join('; ') || 'nobody'}
              {r.skipped.length > 0 && <span class="muted"> (skipped: {r.skipped.join('; ')})</span>}
            </p>
          ))}
          <p>
            <strong>Ends:</strong> {answer.ends}
          </p>
        </div>
      )}
    </form>
  );
}
