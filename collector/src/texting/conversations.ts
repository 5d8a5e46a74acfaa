// The inbox as the back end reads it (issue 68): a domain's conversations, newest first, filtered
// (unread, assigned to me) and paged; one thread with its texts and the person's calls and forms
// interleaved (their timeline, people/), newest last; the number as the domain's caller privacy
// shows it; whether it opted out. Assigning and reading a thread.
import type { Filter } from 'mongodb';
import { callerWritten, displayOf } from '../domains/phone-display.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { firstNameOf } from '../forms/names.ts';
import { timelineOf, type TimelineEvent } from '../people/timeline.ts';
import type { ConversationDoc, OptOutDoc, TextingCollections, TextMessageDoc } from './documents.ts';
import { optOutId, type OptOuts } from './opt-outs.ts';

/** Texts a thread shows at most: the latest. */
const THREAD_MAX = 200;

export interface ConversationFilter {
  unread?: boolean;
  /** Assigned to this member. */
  assignee?: string;
  page: number;
  limit: number;
}

export type ThreadEntry = ({ type: 'text' } & Omit<TextMessageDoc, '_id' | 'conversationId' | 'domainId' | 'keyword' | 'lastTouch'> & { id: string }) | Extract<TimelineEvent, { type: 'call' | 'form' }>;

const shownPhone = (domain: DomainDoc, phone: string | null) => (phone ? callerWritten(phone, domain) : 'erased');

export function conversationView(domain: DomainDoc, doc: ConversationDoc, optOut: OptOutDoc | null = null) {
  const { _id, accountId: _, phone, trackingNumber, ...rest } = doc;
  return { id: _id, ...rest, phone: shownPhone(domain, phone), trackingNumber: displayOf(trackingNumber, countryOf(domain)), optedOut: optOut ? { at: optOut.at, word: optOut.word } : null };
}

export class Conversations {
  constructor(
    private readonly c: Parameters<typeof timelineOf>[0] & TextingCollections,
    private readonly optOuts: OptOuts,
  ) {}

  async list(domain: DomainDoc, f: ConversationFilter) {
    const filter: Filter<ConversationDoc> = { domainId: domain._id, ...(f.unread ? { unread: { $gt: 0 } } : {}), ...(f.assignee ? { assignee: f.assignee } : {}) };
    const [docs, total, unread] = await Promise.all([
      this.c.conversations.find(filter, { sort: { lastAt: -1, _id: 1 }, skip: (f.page - 1) * f.limit, limit: f.limit }).toArray(),
      this.c.conversations.countDocuments(filter),
      this.c.conversations.countDocuments({ domainId: domain._id, unread: { $gt: 0 } }),
    ]);
    // By their hashes: an opt-out outlives an erase of its number.
    const optedOut = new Map((await this.optOuts.ofPhones(domain._id, docs.flatMap((d) => (d.phone ? [d.phone] : [])))).map((o) => [o._id, o]));
    return { conversations: docs.map((d) => conversationView(domain, d, (d.phone && optedOut.get(optOutId(domain._id, d.phone))) || null)), total, unreadConversations: unread, page: f.page, limit: f.limit };
  }

  find(domain: DomainDoc, id: string): Promise<ConversationDoc | null> {
    return this.c.conversations.findOne({ _id: id, domainId: domain._id });
  }

  /** The conversation as the inbox shows it, with its opt-out. */
  async shown(domain: DomainDoc, doc: ConversationDoc) {
    return conversationView(domain, doc, doc.phone ? await this.optOuts.of(domain._id, doc.phone) : null);
  }

  /** The thread: its latest texts, and the person's calls and forms between them, newest last. */
  async thread(domain: DomainDoc, doc: ConversationDoc) {
    const [texts, optOut, timeline] = await Promise.all([
      this.c.textMessages.find({ conversationId: doc._id }, { sort: { at: -1 }, limit: THREAD_MAX }).toArray(),
      doc.phone ? this.optOuts.of(domain._id, doc.phone) : null,
      doc.personId !== null ? timelineOf(this.c, domain, doc.personId) : null,
    ]);
    // Texts of one second (a carrier's webhook gives no finer time) in the order they came: their SMS ids.
    texts.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.smsId ?? 0) - (b.smsId ?? 0));
    const entries: ThreadEntry[] = [
      // A text received says where its texter came from (its `source`); the rest of its attribution is the rules'.
      ...texts.map(({ _id, conversationId: _c, domainId: _d, keyword: _k, lastTouch: _t, ...t }): ThreadEntry => ({ type: 'text', id: _id, ...t })),
      ...(timeline?.events.filter((e): e is Extract<TimelineEvent, { type: 'call' | 'form' }> => e.type === 'call' || e.type === 'form') ?? []),
    ].sort((a, b) => a.at.getTime() - b.at.getTime());
    // Their first name, for the saved replies: from their latest form that gave one.
    const forms = entries.filter((e): e is Extract<ThreadEntry, { type: 'form' }> => e.type === 'form');
    const firstName = forms.map((f) => firstNameOf(f.fields)).filter(Boolean).at(-1) ?? null;
    return { conversation: conversationView(domain, doc, optOut), entries, firstName };
  }

  /** Who answers it (null: nobody), and/or read now (its unread count back to 0). */
  async change(doc: ConversationDoc, change: { assignee?: string | null; read?: boolean }): Promise<ConversationDoc> {
    const set = { ...(change.assignee !== undefined ? { assignee: change.assignee } : {}), ...(change.read ? { unread: 0 } : {}) };
    return (await this.c.conversations.findOneAndUpdate({ _id: doc._id }, { $set: set }, { returnDocument: 'after' }))!;
  }
}
