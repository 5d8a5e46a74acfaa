// The inbox as the back end reads it (issue 68): a domain's conversations, newest first, filtered
// (unread, assigned to me) and paged; one thread with its texts and the person's calls and forms
// interleaved (their timeline, people/), newest last; the number as the domain's caller privacy
// shows it; whether it opted out. Assigning and reading a thread.
import type { Filter } from 'mongodb';
import { callerWritten, displayOf } from '../domains/phone-display.ts';
import { countryOf } from '../domains/phone-numbers.ts';
import type { DomainDoc } from '../domains/documents.ts';
import { firstNameOf } from '../forms/names.ts';
import { randomUUID } from 'node:crypto';
import { timelineOf, type TimelineEvent } from '../people/timeline.ts';
import { namesOf, nameSet } from '../people/person-name.ts';
import { nameOf } from '../forms/names.ts';
import type { ConversationDoc, ConversationNote, OptOutDoc, TextingCollections, TextMessageDoc } from './documents.ts';
import { optOutId, type OptOuts } from './opt-outs.ts';

/** Texts a thread shows at most: the latest. */
const THREAD_MAX = 200;
/** Notes a conversation keeps: the latest. */
export const MAX_NOTES = 100;

export interface ConversationFilter {
  unread?: boolean;
  /** Assigned to this member. */
  assignee?: string;
  page: number;
  limit: number;
}

export type ThreadEntry = ({ type: 'text' } & Omit<TextMessageDoc, '_id' | 'conversationId' | 'domainId' | 'keyword' | 'lastTouch'> & { id: string }) | ({ type: 'note' } & ConversationNote) | Extract<TimelineEvent, { type: 'call' | 'form' }>;

const shownPhone = (domain: DomainDoc, phone: string | null) => (phone ? callerWritten(phone, domain) : 'erased');

/** `name`: the person's (their forms' or a member's); null: not known. */
export function conversationView(domain: DomainDoc, doc: ConversationDoc, optOut: OptOutDoc | null = null, name: string | null = null) {
  const { _id, accountId: _, phone, trackingNumber, notes: _n, ...rest } = doc;
  return { id: _id, ...rest, name: phone ? name : null, phone: shownPhone(domain, phone), trackingNumber: displayOf(trackingNumber, countryOf(domain)), optedOut: optOut ? { at: optOut.at, word: optOut.word } : null };
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
    const [optOuts, names] = await Promise.all([this.optOuts.ofPhones(domain._id, docs.flatMap((d) => (d.phone ? [d.phone] : []))), namesOf(this.c, docs.flatMap((d) => (d.personId !== null ? [d.personId] : [])))]);
    const optedOut = new Map(optOuts.map((o) => [o._id, o]));
    return { conversations: docs.map((d) => conversationView(domain, d, (d.phone && optedOut.get(optOutId(domain._id, d.phone))) || null, (d.personId !== null && names.get(d.personId)) || null)), total, unreadConversations: unread, page: f.page, limit: f.limit };
  }

  find(domain: DomainDoc, id: string): Promise<ConversationDoc | null> {
    return this.c.conversations.findOne({ _id: id, domainId: domain._id });
  }

  /** The conversation as the inbox shows it, with its opt-out and the person's name. */
  async shown(domain: DomainDoc, doc: ConversationDoc) {
    const [optOut, names] = await Promise.all([doc.phone ? this.optOuts.of(domain._id, doc.phone) : null, namesOf(this.c, doc.personId !== null ? [doc.personId] : [])]);
    return conversationView(domain, doc, optOut, (doc.personId !== null && names.get(doc.personId)) || null);
  }

  /** The thread: its latest texts, and the person's calls and forms between them, newest last. */
  async thread(domain: DomainDoc, doc: ConversationDoc) {
    const [texts, optOut, timeline, names] = await Promise.all([
      this.c.textMessages.find({ conversationId: doc._id }, { sort: { at: -1 }, limit: THREAD_MAX }).toArray(),
      doc.phone ? this.optOuts.of(domain._id, doc.phone) : null,
      doc.personId !== null ? timelineOf(this.c, domain, doc.personId) : null,
      namesOf(this.c, doc.personId !== null ? [doc.personId] : []),
    ]);
    // Texts of one second (a carrier's webhook gives no finer time) in the order they came: their SMS ids.
    texts.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.smsId ?? 0) - (b.smsId ?? 0));
    const entries: ThreadEntry[] = [
      // A text received says where its texter came from (its `source`); the rest of its attribution is the rules'.
      ...texts.map(({ _id, conversationId: _c, domainId: _d, keyword: _k, lastTouch: _t, ...t }): ThreadEntry => ({ type: 'text', id: _id, ...t })),
      ...(timeline?.events.filter((e): e is Extract<TimelineEvent, { type: 'call' | 'form' }> => e.type === 'call' || e.type === 'form') ?? []),
      ...(doc.notes ?? []).map((n): ThreadEntry => ({ type: 'note', ...n })),
    ].sort((a, b) => a.at.getTime() - b.at.getTime());
    // Their name: the person's, else their latest form's that gave one (a form sent before names were kept).
    const forms = entries.filter((e): e is Extract<ThreadEntry, { type: 'form' }> => e.type === 'form');
    const name = (doc.personId !== null && names.get(doc.personId)) || forms.map((f) => nameOf(f.fields)).filter(Boolean).at(-1) || null;
    // Their first name, for the saved replies: from their latest form that gave one, or their name.
    const firstName = forms.map((f) => firstNameOf(f.fields)).filter(Boolean).at(-1) ?? name?.split(/\s+/)[0] ?? null;
    return { conversation: conversationView(domain, doc, optOut, name), entries, firstName };
  }

  /** A member's note on the conversation, kept with the latest MAX_NOTES. */
  async note(doc: ConversationDoc, text: string, by: string, at = new Date()): Promise<ConversationNote> {
    const note: ConversationNote = { id: randomUUID(), at, by, text };
    await this.c.conversations.updateOne({ _id: doc._id }, { $push: { notes: { $each: [note], $slice: -MAX_NOTES } } });
    return note;
  }

  /** A member names the texter's person (null: forgets the name). */
  async name(doc: ConversationDoc, name: string | null, by: string): Promise<void> {
    if (doc.personId !== null) await nameSet(this.c, doc.personId, name, by);
  }

  /** Who answers it (null: nobody), and/or read now (its unread count back to 0). */
  async change(doc: ConversationDoc, change: { assignee?: string | null; read?: boolean }): Promise<ConversationDoc> {
    const set = { ...(change.assignee !== undefined ? { assignee: change.assignee } : {}), ...(change.read ? { unread: 0 } : {}) };
    return (await this.c.conversations.findOneAndUpdate({ _id: doc._id }, { $set: set }, { returnDocument: 'after' }))!;
  }
}
