// Sends one message through the SMTP server of SMTP_URL (nodemailer, the Node ecosystem's standard
// mail library), with time limits on every step: a server that accepts the connection and never
// answers fails the attempt, which the outbox retries (webhooks/delivery-worker.ts). A refusal with a
// 4xx code is retried too; a 5xx code is the server's final word.
import { createTransport } from 'nodemailer';
import type { SendResult } from '../webhooks/send.ts';
import type { MailBody } from './message.ts';
import { armDeadline } from '../webhooks/deadline.ts';

export interface MailSettings {
  smtpUrl: string;
  /** The sender, `RingTrail <ringtrail@example.com>`. */
  from: string;
  /** Each step's time limit; tests shorten it. */
  timeoutMs?: number;
}

/** Each step of a delivery gives up after this long (connecting, the greeting, any answer). */
const TIMEOUT_MS = 10_000;
/** The whole delivery gives up after this many steps' time: a server answering one byte at a time is
 * never idle, and would hold the attempt for ever. */
const WHOLE_STEPS = 6;

export class Mailer {
  private readonly transport;

  constructor(readonly settings: MailSettings) {
    // Options in the URL's query (`?socketTimeout=...`) win over these.
    const timeout = settings.timeoutMs ?? TIMEOUT_MS;
    this.transport = createTransport({ url: settings.smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout, dnsTimeout: timeout });
  }

  /** Sends the message under the outbox message's id (its Message-ID), so a receiver can tell a repeat.
   * Given up (and retried by the outbox) past its total deadline, or at once when `signal` aborts. */
  async send(mail: MailBody, id: string, signal?: AbortSignal): Promise<SendResult> {
    const wholeMs = WHOLE_STEPS * (this.settings.timeoutMs ?? TIMEOUT_MS);
    let disarm = () => {};
    const cut = new Promise<never>((_, reject) => {
      disarm = armDeadline({ destroy: reject }, wholeMs, signal, 'the mail server');
    });
    try {
      const info = await Promise.race([this.transport.sendMail({
        from: this.settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: `<${id}@ringtrail>`,
      }), cut]);
      return { delivered: info.accepted.length > 0, httpStatus: null, error: info.accepted.length > 0 ? null : `refused: ${info.response}`, permanent: info.accepted.length === 0 };
    } catch (err) {
      const { responseCode, response, message } = err as { responseCode?: number; response?: string; message: string };
      return { delivered: false, httpStatus: null, error: responseCode ? `SMTP ${response ?? responseCode}` : message, permanent: responseCode !== undefined && responseCode >= 500 };
    } finally {
      disarm();
    }
  }

  close(): void {
    this.transport.close();
  }
}
