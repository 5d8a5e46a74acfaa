// The HTML of every mail: tables and inline styles (what common mail clients read well), no script,
// no remote image, every value escaped. `html` is a tagged template whose values are escaped unless
// they are Html already, so a caller number or a page title can never become markup.

export class Html {
  constructor(readonly value: string) {}
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, part, i) => out + part + (i < values.length ? render(values[i]) : ''), ''));
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const FONT = new Html("font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif");

export interface MailPage {
  heading: string;
  body: Html;
  /** The back end's page the mail is about (or its front page). */
  link: { url: string; label: string };
  /** Why the person receives it, and how to stop. */
  footer: string;
  unsubscribeUrl?: string;
}

/** A whole HTML document: a card of 600 px at most, centred, readable without images or CSS support. */
export function mailPage({ heading, body, link, footer, unsubscribeUrl }: MailPage): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${heading}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid #e3e6ea;border-radius:8px">
<tr><td style="padding:20px 24px 4px;${FONT};font-size:13px;color:#5b6472">RingTrail</td></tr>
<tr><td style="padding:4px 24px 8px;${FONT};font-size:20px;font-weight:600;color:#111827">${heading}</td></tr>
<tr><td style="padding:8px 24px;${FONT};font-size:15px;line-height:1.5;color:#111827">${body}</td></tr>
<tr><td style="padding:12px 24px 20px"><a href="${link.url}" style="display:inline-block;padding:10px 16px;background:#1d63ed;color:#ffffff;border-radius:6px;text-decoration:none;${FONT};font-size:14px">${link.label}</a></td></tr>
</table>
<p style="max-width:600px;margin:12px auto 0;${FONT};font-size:12px;line-height:1.5;color:#5b6472">${footer}${unsubscribeUrl ? html` <a href="${unsubscribeUrl}" style="color:#5b6472">Unsubscribe</a>.` : ''}</p>
</td></tr></table>
</body></html>`.value;
}

/** Rows of label and value, as a small table. */
export function facts(rows: [string, string | Html][]): Html {
  return html`<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:8px 0">${rows.map(
    ([label, value]) => html`<tr><td style="padding:4px 16px 4px 0;${FONT};font-size:14px;color:#5b6472;vertical-align:top">${label}</td><td style="padding:4px 0;${FONT};font-size:14px;color:#111827">${value}</td></tr>`,
  )}</table>`;
}
