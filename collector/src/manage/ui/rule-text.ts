// A rule's conditions and actions as the Rules card writes them, one a line, and read back:
// `duration atLeast 60`, `campaign is spring`, `keyPhrase said booked caller`, `dayOfWeek in mon,tue`,
// `timeOfDay between 18:00-08:00`, `formField contains message: new boiler`, `outcome
// appointmentBooked is yes`, `leadScore atLeast 70`, `sentiment is negative`, `answer Did they ask
// for emergency service? is yes`, `words contains price`; `tag Booked`,
// `value 120`, `verdict lead`, `chat https://hooks.slack.com/…`, `push`,
// `mail members ada@acme.example, bob@acme.example address sales@partner.example`. The server checks what is read.

import { webhookShown } from '../../rules/webhook-shown.ts';

export type Condition = { field: string; op: string; value: unknown; speaker?: string; name?: string; question?: string };
/** `url`: a chat webhook, whole only for who may edit the rule (else its host and last four characters). */
export type Action = { type: string; tag?: string; amount?: number; verdict?: string; url?: string; members?: string[]; address?: string };

const NUMBERS = ['duration', 'pool', 'leadScore'];
const BOOLEANS = ['answered', 'firstCall', 'hadLead'];

export function conditionText(c: Condition): string {
  if (c.field === 'dayOfWeek') return `dayOfWeek in ${(c.value as string[]).join(',')}`;
  if (c.field === 'timeOfDay') return `timeOfDay between ${(c.value as { from: string }).from}-${(c.value as { to: string }).to}`;
  if (c.field === 'keyPhrase') return `keyPhrase said ${String(c.value)}${c.speaker && c.speaker !== 'any' ? ` ${c.speaker}` : ''}`;
  if (c.field === 'formField') return `formField contains ${c.name}: ${String(c.value)}`;
  if (c.field === 'outcome') return `outcome ${c.name} ${c.op} ${String(c.value)}`;
  if (c.field === 'answer') return `answer ${c.question} ${c.op} ${String(c.value)}`;
  return `${c.field} ${c.op} ${String(c.value)}`;
}

/** `whole`: the chat webhook's whole URL, for the form that edits the rule; else its host and last
 * four characters, as the list shows it to everyone. */
export function actionText(a: Action, whole = false): string {
  if (a.type === 'tag') return `tag ${a.tag}`;
  if (a.type === 'value') return `value ${a.amount}`;
  if (a.type === 'verdict') return `verdict ${a.verdict}`;
  if (a.type === 'chat') return `chat ${whole ? a.url : webhookShown(a.url ?? '')}`;
  if (a.type === 'mail') return `mail${a.members?.length ? ` members ${a.members.join(', ')}` : ''}${a.address ? ` address ${a.address}` : ''}`;
  return a.type;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

export function parseConditions(text: string): Condition[] {
  return lines(text).map((line) => {
    const [field = '', op = '', ...rest] = line.split(/\s+/);
    const value = rest.join(' ');
    if (field === 'dayOfWeek') return { field, op, value: value.split(/[,\s]+/).filter(Boolean).map((d) => d.toLowerCase()) };
    if (field === 'timeOfDay') {
      const [from = '', to = ''] = value.split('-').map((t) => t.trim());
      return { field, op, value: { from, to } };
    }
    if (field === 'keyPhrase') {
      const last = rest.at(-1)?.toLowerCase();
      const speaker = rest.length > 1 && (last === 'caller' || last === 'agent' || last === 'any') ? last : 'any';
      return { field, op, value: (speaker === 'any' && last !== 'any' ? rest : rest.slice(0, -1)).join(' '), speaker };
    }
    if (field === 'formField') {
      const colon = value.indexOf(':');
      return { field, op, name: value.slice(0, Math.max(0, colon)).trim(), value: value.slice(colon + 1).trim() };
    }
    if (field === 'outcome') return { field, name: op, op: rest[0] ?? '', value: rest.slice(1).join(' ') };
    if (field === 'answer') {
      // The question is everything between `answer` and the last two words (`is yes`).
      const words = line.split(/\s+/).slice(1);
      return { field, question: words.slice(0, -2).join(' '), op: words.at(-2) ?? '', value: words.at(-1) ?? '' };
    }
    if (NUMBERS.includes(field)) return { field, op, value: Number(value) };
    if (BOOLEANS.includes(field)) return { field, op, value: value === 'true' ? true : value === 'false' ? false : value };
    return { field, op, value };
  });
}

export function parseActions(text: string): Action[] {
  return lines(text).map((line) => {
    const [type = '', ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    if (type === 'tag') return { type, tag: arg };
    if (type === 'value') return { type, amount: Number(arg.replace(',', '.')) };
    if (type === 'verdict') return { type, verdict: arg };
    if (type === 'chat') return { type, url: arg };
    if (type === 'mail') {
      // `members a, b` and `address c`, either or both; bare addresses are members.
      const [, members = '', address] = /^(?:members\s+)?(.*?)\s*(?:\baddress\s+(\S+))?$/.exec(arg) ?? [];
      return { type, members: members.split(/[,\s]+/).filter(Boolean), ...(address ? { address } : {}) };
    }
    return { type };
  });
}
