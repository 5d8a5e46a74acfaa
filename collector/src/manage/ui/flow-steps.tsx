// One step of a call flow as a card: its kind, its settings, and its branches, each a choice of the
// flow's steps or a new one. `change` gives the step changed; `branch` makes a new step and answers its name.
// A text field keeps each keystroke (onInput): a change waiting for the field to lose focus would be
// undone by any render before (an upload ending); the week's hours and the holidays, read from
// their text, take it when the field is left.
import { useState } from 'preact/hooks';
import { KIND_NAMES, WEEK, type Step, type StepKind } from './flow-templates.ts';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'];
const DAY_NAMES: Record<(typeof WEEK)[number], string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const NEW = '+';

interface Props {
  name: string;
  step: Step;
  names: string[];
  members: { username: string; hasPhone: boolean; available: boolean }[];
  isStart: boolean;
  /** Changes the step as it is by then (an upload ends after other edits). */
  change: (update: (step: Step) => Step) => void;
  changeKind: (kind: StepKind) => void;
  remove: () => void;
  branch: () => string;
  /** Uploads a recorded prompt; answers its id. */
  upload: (file: File) => Promise<string>;
}

/** What the caller hears: a text read in the domain's language, or a recorded file uploaded here. */
function PromptField({ label, prompt, set, upload, optional = false }: { label: string; prompt: { text?: string; audio?: string } | undefined; set: (prompt: { text?: string; audio?: string } | undefined) => void; upload: (file: File) => Promise<string>; optional?: boolean }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div class="row prompt">
      {prompt?.audio ? (
        <label>
          {label}
          <span>
            a recording <audio controls preload="none" src={`/telephony/flow-audio/${prompt.audio}`} />{' '}
            <button type="button" class="link" onClick={() => set(optional ? undefined : { text: '' })}>
              read a text instead
            </button>
          </span>
        </label>
      ) : (
        <label>
          {label}
          <input value={prompt?.text ?? ''} onInput={(e) => {
              const text = (e.target as HTMLInputElement).value;
              set(text || !optional ? { text } : undefined);
            }}
          />
        </label>
      )}
      <label>
        Or a recording (WAV, MP3)
        <input
          type="file"
          accept="audio/wav,audio/mpeg"
          onChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (!file) return;
            setError(null);
            upload(file).then((audio) => set({ audio }), (err: Error) => setError(err.message));
          }}
        />
        {error && <span class="warn-text">{error}</span>}
      </label>
    </div>
  );
}

/** `09:00-12:00, 14:00-18:00` and back. */
const rangesText = (ranges: { from: string; to: string }[]) => ranges.map((r) => `${r.from}-${r.to}`).join(', ');
const rangesOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [from = '', to = ''] = part.split('-').map((t) => t.trim());
      return { from, to };
    });
/** `2026-12-25 Christmas` or `2026-08-01..2026-08-15 Summer`, a line each. */
const holidaysText = (holidays: { from: string; to?: string; name?: string }[]) => holidays.map((h) => `${h.from}${h.to ? `..${h.to}` : ''}${h.name ? ` ${h.name}` : ''}`).join('\n');
const holidaysOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [days = '', ...name] = line.split(/\s+/);
      const [from = '', to] = days.split('..');
      return { from, ...(to ? { to } : {}), ...(name.length ? { name: name.join(' ') } : {}) };
    });

export function StepCard({ name, step, names, members, isStart, change, changeKind, remove, branch, upload }: Props) {
  const set = (fields: Record<string, unknown>) => change((current) => ({ ...current, ...fields }));
  /** A choice of the step a branch leads to; "+ a new step" makes one. */
  const Next = ({ label, value, onPick, optional = false }: { label: string; value: string | undefined; onPick: (name: string | undefined) => void; optional?: boolean }) => (
    <label>
      {label}
      <select value={value ?? ''} onChange={(e) => {
          const picked = (e.target as HTMLSelectElement).value;
          onPick(picked === NEW ? branch() : picked || undefined);
        }}
      >
        {optional && <option value="">hang up</option>}
        {names.filter((n) => n !== name).map((n) => (
          <option value={n}>{n}</option>
        ))}
        <option value={NEW}>+ a new step</option>
      </select>
    </label>
  );
  return (
    <div class="card flow-step" data-testid="flow-step" data-step={name}>
      <div class="rule-head">
        <strong>{name}</strong>
        {isStart && <span class="badge">start</span>}
        <select aria-label={`Kind of ${name}`} value={step.kind} onChange={(e) => changeKind((e.target as HTMLSelectElement).value as StepKind)}>
          {(Object.keys(KIND_NAMES) as StepKind[]).map((k) => (
            <option value={k}>{KIND_NAMES[k]}</option>
          ))}
        </select>
        {!isStart && (
          <button type="button" class="danger" onClick={remove}>
            Remove
          </button>
        )}
      </div>
      <label>
        Name (what the call's page, the calls log and the overview say)
        <input value={step.name ?? ''} placeholder={name} maxLength={60} onInput={(e) => set({ name: (e.target as HTMLInputElement).value.trim() ? (e.target as HTMLInputElement).value : undefined })} />
      </label>
      {step.kind === 'schedule' && (
        <>
          <div class="week">
            {WEEK.map((day) => (
              <label>
                {DAY_NAMES[day]}
                <input value={rangesText(step.week[day] ?? [])} placeholder="closed" onChange={(e) => set({ week: { ...step.week, [day]: rangesOf((e.target as HTMLInputElement).value) } })} />
              </label>
            ))}
          </div>
          <label>
            Holidays, a line each (2026-12-25 Christmas, or 2026-08-01..2026-08-15 Summer)
            <textarea rows={2} value={holidaysText(step.holidays ?? [])} onChange={(e) => set({ holidays: holidaysOf((e.target as HTMLTextAreaElement).value) })} />
          </label>
          <div class="row">
            <Next label="While open" value={step.open} onPick={(n) => set({ open: n })} />
            <Next label="While closed" value={step.closed} onPick={(n) => set({ closed: n })} />
          </div>
        </>
      )}
      {step.kind === 'menu' && (
        <>
          <PromptField label="What the caller hears" prompt={step.prompt} set={(prompt) => set({ prompt })} upload={upload} />
          {step.options.map((o: any, i: number) => (
            <div class="row option" data-testid="menu-option">
              <label>
                Key
                <select value={o.key} onChange={(e) => set({ options: step.options.map((x: any, j: number) => (j === i ? { ...x, key: (e.target as HTMLSelectElement).value } : x)) })}>
                  {KEYS.map((k) => (
                    <option value={k}>{k}</option>
                  ))}
                </select>
              </label>
              <label>
                Label
                <input value={o.label} onInput={(e) => set({ options: step.options.map((x: any, j: number) => (j === i ? { ...x, label: (e.target as HTMLInputElement).value } : x)) })} />
              </label>
              <Next label="Goes to" value={o.next} onPick={(n) => set({ options: step.options.map((x: any, j: number) => (j === i ? { ...x, next: n } : x)) })} />
              <button type="button" class="link" onClick={() => set({ options: step.options.filter((_: unknown, j: number) => j !== i) })}>
                remove
              </button>
            </div>
          ))}
          <div class="row">
            <button type="button" onClick={() => set({ options: [...step.options, { key: KEYS.find((k) => !step.options.some((o: any) => o.key === k)) ?? '9', label: 'Option', next: step.default }] })}>
              Add an option
            </button>
            <Next label="No key, or a wrong one (after the repeats)" value={step.default} onPick={(n) => set({ default: n })} />
          </div>
          <div class="row">
            <label>
              Seconds to press a key
              <input type="number" min={1} max={30} value={step.timeoutSeconds ?? 5} onInput={(e) => set({ timeoutSeconds: Number((e.target as HTMLInputElement).value) })} />
            </label>
            <label>
              Times played again after no key or a wrong one
              <input type="number" min={0} max={5} value={step.repeats ?? 2} onInput={(e) => set({ repeats: Number((e.target as HTMLInputElement).value) })} />
            </label>
            <label>
              Said after a wrong key (empty: the default, in the domain's language)
              <input value={step.invalidText ?? ''} onInput={(e) => set({ invalidText: (e.target as HTMLInputElement).value || undefined })} />
            </label>
          </div>
        </>
      )}
      {step.kind === 'ring' && (
        <>
          <div class="row">
            <label>
              Strategy
              <select value={step.strategy} onChange={(e) => set({ strategy: (e.target as HTMLSelectElement).value })}>
                <option value="simultaneous">Ring all at once</option>
                <option value="sequential">In turn, in this order</option>
                <option value="round-robin">Round robin (by weight)</option>
              </select>
            </label>
            <label>
              Seconds each
              <input type="number" min={5} max={120} value={step.ringSeconds ?? 20} onInput={(e) => set({ ringSeconds: Number((e.target as HTMLInputElement).value) })} />
            </label>
            <label>
              Sticky (days)
              <input type="number" min={1} max={365} value={step.stickyDays ?? ''} placeholder="off" onInput={(e) => set({ stickyDays: (e.target as HTMLInputElement).value ? Number((e.target as HTMLInputElement).value) : undefined })} />
            </label>
          </div>
          {step.targets.map((t: any, i: number) => {
            const member = 'member' in t ? members.find((m) => m.username === t.member) : undefined;
            return (
              <div class="row option" data-testid="ring-target">
                {'member' in t ? (
                  <label>
                    Member
                    <select value={t.member} onChange={(e) => set({ targets: step.targets.map((x: any, j: number) => (j === i ? { ...x, member: (e.target as HTMLSelectElement).value } : x)) })}>
                      {members.map((m) => (
                        <option value={m.username}>{m.username}</option>
                      ))}
                    </select>
                    {member && (!member.hasPhone || !member.available) && <span class="warn-text">{!member.hasPhone ? 'no phone set: skipped' : 'unavailable now: skipped'}</span>}
                  </label>
                ) : (
                  <label>
                    Number
                    <input value={t.number} onInput={(e) => set({ targets: step.targets.map((x: any, j: number) => (j === i ? { ...x, number: (e.target as HTMLInputElement).value } : x)) })} />
                  </label>
                )}
                {step.strategy === 'round-robin' && (
                  <label>
                    Weight
                    <input type="number" min={1} max={100} value={t.weight ?? 1} onInput={(e) => set({ targets: step.targets.map((x: any, j: number) => (j === i ? { ...x, weight: Number((e.target as HTMLInputElement).value) } : x)) })} />
                  </label>
                )}
                <button type="button" class="link" onClick={() => set({ targets: step.targets.filter((_: unknown, j: number) => j !== i) })}>
                  remove
                </button>
              </div>
            );
          })}
          <div class="row">
            {members.length > 0 && (
              <button type="button" onClick={() => set({ targets: [...step.targets, { member: members[0]!.username }] })}>
                Add a member
              </button>
            )}
            <button type="button" onClick={() => set({ targets: [...step.targets, { number: '' }] })}>
              Add a number
            </button>
            <Next label="Nobody answers" value={step.noAnswer} onPick={(n) => set({ noAnswer: n })} />
          </div>
        </>
      )}
      {step.kind === 'route' && (
        <>
          {step.branches.map((b: any, i: number) => {
            const [field = 'caller', value = ''] = Object.entries(b.when)[0] ?? [];
            const when = (f: string, v: string) => set({ branches: step.branches.map((x: any, j: number) => (j === i ? { ...x, when: { [f]: f === 'blocked' ? v === 'true' : v } } : x)) });
            return (
              <div class="row option">
                <label>
                  When
                  <select value={field} onChange={(e) => when((e.target as HTMLSelectElement).value, '')}>
                    <option value="caller">the caller is (first-time, returning)</option>
                    <option value="callerCountry">the caller's country is</option>
                    <option value="callerArea">the caller's number starts with</option>
                    <option value="sourceClass">the visit came from (paid, organic…)</option>
                    <option value="campaign">the visit's campaign is</option>
                    <option value="blocked">the caller is blocked (true, false)</option>
                  </select>
                </label>
                <label>
                  Value
                  <input value={String(value)} onInput={(e) => when(field, (e.target as HTMLInputElement).value)} />
                </label>
                <Next label="Goes to" value={b.next} onPick={(n) => set({ branches: step.branches.map((x: any, j: number) => (j === i ? { ...x, next: n } : x)) })} />
              </div>
            );
          })}
          <div class="row">
            <button type="button" onClick={() => set({ branches: [...step.branches, { when: { caller: 'returning' }, next: step.default }] })}>
              Add a branch
            </button>
            <Next label="Otherwise" value={step.default} onPick={(n) => set({ default: n })} />
          </div>
        </>
      )}
      {step.kind === 'voicemail' && (
        <div class="row">
          <PromptField label="Greeting (empty: “Please leave a message after the tone” in the domain's language)" prompt={step.greeting} set={(greeting) => set({ greeting })} upload={upload} optional />
          <label>
            Longest message (s)
            <input type="number" min={5} max={300} value={step.maxSeconds ?? 120} onInput={(e) => set({ maxSeconds: Number((e.target as HTMLInputElement).value) })} />
          </label>
        </div>
      )}
      {step.kind === 'forward' && (
        <label>
          Number (empty: the number's destination, with the no-answer redirect, whisper and recording as today)
          <input value={step.number ?? ''} onInput={(e) => set({ number: (e.target as HTMLInputElement).value || undefined })} />
        </label>
      )}
      {step.kind === 'say' && (
        <div class="row">
          <PromptField label="Said" prompt={step.prompt} set={(prompt) => set({ prompt })} upload={upload} />
          <Next label="Then" value={step.next} onPick={(n) => set({ next: n })} optional />
        </div>
      )}
    </div>
  );
}
