// A real SMTP server on loopback (smtp-server, the Nodemailer project's): it receives what the
// collector sends, parses each message (mailparser), and can refuse the next ones with a code, so
// tests read the mails a person would get and see retries happen.
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface Inbox {
  /** SMTP_URL for the collector. */
  url: string;
  messages: ParsedMail[];
  /** Answers the next `count` messages with `code` (451: try later; 550: refused for good). */
  refuseNext(count: number, code: number): void;
  /** Resolves once `count` messages have arrived in all; rejects after `timeoutMs` with what came. */
  received(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  const waiting = new Set<() => void>();
  let refusals: { count: number; code: number } = { count: 0, code: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (refusals.count > 0) {
        refusals.count--;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(refusals.code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: refusals.code })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const wake of waiting) wake();
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuseNext(count, code) {
      refusals = { count, code };
    },
    received(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(messages.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${messages.length} of ${count} messages arrived: ${messages.map((m) => m.subject).join(' | ')}`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
