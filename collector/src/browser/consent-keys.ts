// The per-visit secret that ties a consent change to the visitor who holds the visit (issue 70):
// /t/view gives it to the page with the ads consent script (in the script's address), and
// /t/consent takes a change only with it, never on a bare visit id, which is a small sequential
// number anyone can guess. It is an HMAC of the visit id under a secret of the domain's, kept on the
// domain (`consentSecret`, ours, made at its first use, never shown), so nothing is stored per visit.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DomainCollections } from '../domains/documents.ts';

/** `listen` (issue 80): a recording's link that plays without a sign-in, until its time (recordings/listen-links.ts). */
export type KeyPurpose = 'consent' | 'visit' | 'listen';

export class ConsentKeys {
  private readonly secrets = new Map<string, Promise<Buffer>>();

  constructor(private readonly c: DomainCollections) {}

  /** The visit's key, as the page is given it. `purpose` keeps each key apart: `consent` (the ads
   * consent script's), `visit` (issue 79: the `tracker_visit_key` cookie that lets a browser continue
   * its own visit, and nobody else's). */
  async keyOf(domainId: string, visitId: number | string, purpose: KeyPurpose = 'consent'): Promise<string> {
    return createHmac('sha256', await this.secretOf(domainId)).update(`${purpose}|${visitId}`).digest('base64url').slice(0, 22);
  }

  /** Whether `given` is the visit's key. */
  async holds(domainId: string, visitId: number | string, given: string, purpose: KeyPurpose = 'consent'): Promise<boolean> {
    const [key, sent] = [Buffer.from(await this.keyOf(domainId, visitId, purpose)), Buffer.from(given)];
    return key.length === sent.length && timingSafeEqual(key, sent);
  }

  /** The domain's secret: made once, whichever process asks first (the others read it). */
  private secretOf(domainId: string): Promise<Buffer> {
    let secret = this.secrets.get(domainId);
    if (!secret) {
      secret = this.made(domainId);
      secret.catch(() => this.secrets.delete(domainId));
      this.secrets.set(domainId, secret);
    }
    return secret;
  }

  private async made(domainId: string): Promise<Buffer> {
    await this.c.domains.updateOne({ _id: domainId, consentSecret: { $exists: false } }, { $set: { consentSecret: randomBytes(32).toString('base64url') } });
    const domain = await this.c.domains.findOne({ _id: domainId }, { projection: { consentSecret: 1 } });
    return Buffer.from(domain!.consentSecret!, 'base64url');
  }
}
