// The tag's form capture (tracker-forms.js), loaded by the core only for domains whose form tracking
// is on. On a form's `submit` event (a person's, or a script's requestSubmit()), it sends the
// contact fields to /t/form, the site's forms unchanged. What is captured (docs/forms.md):
//   kept: fields whose type is email or tel, whose autocomplete is a name, e-mail, phone or
//     organization, whose name says name, e-mail, phone, company, subject or message, any textarea,
//     and the fields the owner listed by name;
//   never: passwords (by type, or a name like one), hidden fields, files, payment card fields
//     (autocomplete cc-*, or a name like a card number or code: shared/src/secret-fields.ts, the
//     form door's rule too), and any field or form marked data-ringtrail-ignore.
// Values are cut to 2,000 characters, the whole to 16 KB. Nothing is sent without the visitor's
// consent (`RingTrail.consented()`). A hidden field the tag adds to each form, which people never
// fill, tells robots apart.
import { SECRET_FIELD_NAME } from '../../shared/src/secret-fields.ts';
import { beacon, own } from './extra-script.ts';

interface Core {
  visitId(): number;
  consented(): boolean;
}

const VALUE_MAX = 2000;
const BYTES_MAX = 16 * 1024;
const HONEYPOT = 'rt_hp';
const SKIPPED_TYPES = /^(password|hidden|file|submit|button|reset|image|checkbox|radio)$/;
const CONTACT_AUTOCOMPLETE = /^(name|given-name|additional-name|family-name|nickname|email|tel|tel-national|organization)$/;
const CONTACT_NAME = /name|nom|e-?mail|courriel|phone|tel|mobile|company|soci[eé]t[eé]|organi[sz]ation|subject|sujet|message|comment/i;

const listed = (own.searchParams.get('fields') || '').split(',').filter(Boolean);

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Whether a field is captured: a contact field, never a secret or a card. */
export function captured(field: Field, extra: string[]): boolean {
  const type = (field as HTMLInputElement).type || '';
  const auto = (field.getAttribute('autocomplete') || '').toLowerCase();
  const name = field.name;
  if (!name || name == HONEYPOT || SKIPPED_TYPES.test(type) || auto.startsWith('cc-') || SECRET_FIELD_NAME.test(name) || field.closest('[data-ringtrail-ignore]')) return false;
  return extra.includes(name) || type == 'email' || type == 'tel' || CONTACT_AUTOCOMPLETE.test(auto) || CONTACT_NAME.test(name) || field.tagName == 'TEXTAREA';
}

/** The form's captured fields, name to value, within the caps. */
export function fieldsOf(form: HTMLFormElement, extra: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of Array.from(form.elements) as Field[]) {
    if (!captured(field, extra) || !field.value) continue;
    fields[field.name] = field.value.slice(0, VALUE_MAX);
    if (new Blob([JSON.stringify(fields)]).size > BYTES_MAX) {
      delete fields[field.name];
      break;
    }
  }
  return fields;
}

/** The hidden field robots fill: off screen, out of the tab order, unnamed to assistive technology. */
function addHoneypot(form: HTMLFormElement): void {
  if (form.querySelector(`[name=${HONEYPOT}]`)) return;
  const trap = Object.assign(document.createElement('input'), { name: HONEYPOT, type: 'text', tabIndex: -1, autocomplete: 'off' });
  trap.setAttribute('aria-hidden', 'true');
  trap.style.cssText = 'position:absolute;left:-9999px;width:1px;height:1px;opacity:0';
  form.append(trap);
}

function start(core: Core): void {
  const watch = () => document.querySelectorAll('form').forEach((form) => form.closest('[data-ringtrail-ignore]') || addHoneypot(form));
  watch();
  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
  // The capture phase: before the site's own handlers, whatever they do with the event.
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target as HTMLFormElement;
      if (!core.consented() || form.closest('[data-ringtrail-ignore]')) return;
      const fields = fieldsOf(form, listed);
      beacon('/t/form', {
        key: own.searchParams.get('key') || '',
        visit_id: `${core.visitId()}`,
        url: location.href,
        form_name: form.getAttribute('name') || form.id || '',
        fields: JSON.stringify(fields),
        honeypot: (form.querySelector(`[name=${HONEYPOT}]`) as HTMLInputElement | null)?.value || '',
        elapsed_ms: `${Math.round(performance.now())}`,
      });
    },
    true,
  );
}

const core = (window as unknown as { RingTrail?: Core }).RingTrail;
if (core) start(core);
