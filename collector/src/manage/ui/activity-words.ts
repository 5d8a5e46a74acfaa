// The activity log in words a person reads: each recorded action (`domain.settings`) as what was
// done ("changed the settings", its code beside it, small, as the filters and the API name it), and
// a change's values without JSON (`recording: (enabled off, consent notice on)`).

const ACTIONS: Record<string, string> = {
  'analysis.try': 'tried the call analysis on a call',
  'call.outcome': "set a call's outcome",
  'dialling.change': 'changed where calls and texts may go',
  'flow.audio': 'uploaded a call flow recording',
  'flow.change': 'changed a call flow',
  'flow.create': 'made a call flow',
  'flow.delete': 'deleted a call flow',
  'profile.availability': 'changed their phone or availability',
  'account.create': 'signed up the account',
  'ads.connect': 'connected an ad platform',
  'ads.disconnect': 'disconnected an ad platform',
  'call.verdict': "set a call's verdict",
  'call.tags': "tagged a call",
  'call.value': "set a call's value",
  'caller.block': 'blocked a caller',
  'conversation.change': 'assigned, read or named a conversation',
  'conversation.note': 'added a note to a conversation',
  'caller.unblock': 'unblocked a caller',
  'carrier.check': 'checked the carrier connection',
  'carrier.connect': 'connected the carrier',
  'carrier.disconnect': 'disconnected the carrier',
  'crm.connect': 'connected a CRM',
  'crm.disconnect': 'disconnected a CRM',
  'crm.resend': 'sent a delivery to the CRM again',
  'domain.create': 'added the domain',
  'domain.settings': 'changed the settings',
  'form.verdict': "set a form's verdict",
  'form.tags': 'tagged a form',
  'form.value': "set a form's value",
  'key.rotate': 'made a new API key',
  'member.change': "changed a member's role or domains",
  'member.invite': 'invited a member',
  'member.join': 'joined the account',
  'member.remove': 'removed a member',
  'member.reset': "sent a member a password reset",
  'member.revoke': 'revoked an invitation',
  'numbers.add': 'added tracking numbers',
  'numbers.buy': 'bought tracking numbers',
  'numbers.fix': 'fixed the carrier set-up of numbers',
  'numbers.import': 'imported numbers from the carrier',
  'numbers.release': 'released numbers to the carrier',
  'numbers.remove': 'removed tracking numbers',
  'offline-number.assign': 'assigned an offline number',
  'offline-number.recording': "changed an offline number's recording",
  'offline-number.redirect': "changed an offline number's redirect",
  'offline-number.unassign': 'unassigned an offline number',
  'password.change': 'changed their password',
  'password.reset': 'reset their password',
  'person.call': 'called a person back',
  'person.erase': 'erased a person',
  'person.export': "exported a person's data",
  'person.merge': 'merged two people',
  'pool.add': 'added a pool',
  'recording.delete': 'deleted a recording',
  'rule.apply': 'applied a rule to past calls',
  'rule.create': 'made a rule',
  'rule.delete': 'deleted a rule',
  'rule.undo': "undid a rule's run",
  'rule.update': 'changed a rule',
  'session.end': 'signed a session out',
  'session.end-others': 'signed their other sessions out',
  'shared-link.create': 'shared a report',
  'shared-link.revoke': 'revoked a shared report',
  'tag.create': 'made a tag',
  'text.send': 'sent a text',
  'texting.settings': "changed the texting settings",
  'texting.campaign': 'registered a US texting campaign (A2P 10DLC)',
  'webhook.events': "changed the webhook's events",
  'webhook.resend': 'sent a push again',
  'webhook.test': 'sent a test push',
  'webhook.url': "changed the webhook's address",
};

/** An action in words; one not known here as its code. */
export const actionWords = (action: string) => ACTIONS[action] ?? action;

/** A field's name in words: `callerPrivacy` -> `caller privacy`. */
export const fieldWords = (field: string) => field.replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);

/** A value in words: `none`, `on`/`off`, a list, an object's fields one after the other. */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length ? value.map(valueWords).join(', ') : 'none';
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${fieldWords(k)} ${valueWords(v)}`);
    return fields.length ? `(${fields.join(', ')})` : 'none';
  }
  return String(value);
}
