// A person's texting (issue 68) in their data download and their erase: their opt-outs and the
// conversations with their texts both ways (bounded: the latest MAX_TEXTS); an erase takes their number
// and every text's words, and keeps an opt-out as its hash alone, so it still holds if they text again.
import type { DomainDoc } from '../domains/documents.ts';
import { countryOf, nationalOf } from '../domains/phone-numbers.ts';
import type { TextingCollections } from './documents.ts';
import { OptOuts } from './opt-outs.ts';

/** Texts a download lists at most. */
const MAX_TEXTS = 5000;

const conversationsOf = (c: TextingCollections, domainId: string, personId: number, phones: string[]) => c.conversations.find({ domainId, $or: [{ personId }, ...(phones.length ? [{ phone: { $in: phones } }] : [])] }, { limit: 1000 }).toArray();

/** `"opt_outs":[…],"conversations":[…],` for the person's download. */
export async function* personTexts(c: TextingCollections, domain: DomainDoc, personId: number, phones: string[]): AsyncGenerator<string> {
  const optOuts = await new OptOuts(c).ofPhones(domain._id, phones);
  yield `"opt_outs":${JSON.stringify(optOuts.map((o) => ({ phone: o.phone && nationalOf(o.phone, countryOf(domain)), word: o.word, at: o.at.toISOString() })))},`;
  const conversations = await conversationsOf(c, domain._id, personId, phones);
  const texts = conversations.length ? await c.textMessages.find({ conversationId: { $in: conversations.map((x) => x._id) } }, { sort: { at: -1 }, limit: MAX_TEXTS }).toArray() : [];
  const shown = conversations.map((x) => ({
    conversation_id: x._id,
    tracking_number: nationalOf(x.trackingNumber, countryOf(domain)),
    texts: texts.filter((t) => t.conversationId === x._id).reverse().map((t) => ({ direction: t.direction, at: t.at.toISOString(), body: t.body, status: t.status, by: t.by ?? null })),
  }));
  yield `"conversations":${JSON.stringify(shown)},`;
}

/** Erases the person's texting: how many conversations lost their number and words. */
export async function eraseTexts(c: TextingCollections, domainId: string, personId: number, phones: string[]): Promise<number> {
  const conversations = await conversationsOf(c, domainId, personId, phones);
  const ids = conversations.map((x) => x._id);
  if (ids.length) {
    await c.textMessages.updateMany({ conversationId: { $in: ids } }, { $set: { body: null }, $unset: { media: '' } });
    await c.conversations.updateMany({ _id: { $in: ids } }, { $set: { phone: null, lastText: '', notes: [] } });
  }
  await new OptOuts(c).forget(domainId, phones);
  return ids.length;
}
