import { z } from 'zod';

/** A request/response pair: the client sends `req`, the server answers `res`. */
export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly kind: 'call';
  readonly req: Req;
  readonly res: Res;
}

/**
 * A server-to-client stream opened with a key. Items are flow controlled by credit: `weight` says how much
 * credit one item costs (terminal output costs its length, so watermarks count characters, as VS Code does).
 */
export interface StreamDef<Key extends z.ZodType = z.ZodType, Item extends z.ZodType = z.ZodType> {
  readonly kind: 'stream';
  readonly key: Key;
  readonly item: Item;
  readonly weight: (item: z.output<Item>) => number;
  /** Set for streams whose items are mostly text: such items travel as raw UTF-8 (see rpc/binaryFrame.ts). */
  readonly text?: TextForm<z.output<Item>>;
  /**
   * For a stream whose items come by the thousand a second: a hand-written test that an item already is what `item`
   * parses it to (unknown fields aside), so the receiver can skip the schema for it. It may refuse what the schema
   * accepts (the schema then decides), never accept what the schema refuses. See `withCheck`.
   */
  readonly check?: (item: unknown) => boolean;
}

/**
 * How a stream item maps to plain text and back. `toText` returns undefined for items that are not text (they go
 * as JSON); `fromText(toText(item))` must give the item back, and its weight must not change on the way.
 */
export interface TextForm<T> {
  toText(item: T): string | undefined;
  fromText(text: string): T;
}

export function call<Req extends z.ZodType, Res extends z.ZodType>(req: Req, res: Res): CallDef<Req, Res> {
  return { kind: 'call', req, res };
}

export function stream<Key extends z.ZodType, Item extends z.ZodType>(
  key: Key,
  item: Item,
  weight: (item: z.output<Item>) => number = () => 1,
  text?: TextForm<z.output<Item>>,
): StreamDef<Key, Item> {
  return { kind: 'stream', key, item, weight, text };
}

/** `def` with a quick test of its items (StreamDef.check) in front of the schema. */
export function withCheck<D extends StreamDef>(def: D, check: (item: unknown) => item is z.output<D['item']>): D {
  return { ...def, check };
}

/**
 * What a live list's stream carries: the whole list once, first, then each change to it by id. Everything travels in
 * one stream, in the order the host saw it, so no change can fall between reading the list and hearing of changes.
 */
export type LiveListFrame<T> = { kind: 'snapshot'; items: T[] } | { kind: 'upsert'; item: T } | { kind: 'remove'; id: string };

/** The stream schema of a live list of `Item`s. */
export type LiveListFrameSchema<Item extends z.ZodType> = z.ZodType<LiveListFrame<z.output<Item>>, LiveListFrame<z.input<Item>>>;

/**
 * A list that stays live: a stream (same frames, same credit) whose items are LiveListFrames of `list.item`.
 * `list.idOf` names an item; a snapshot never holds two items with one id (the host refuses to send one).
 */
export type LiveListDef<Key extends z.ZodType = z.ZodType, Item extends z.ZodType = z.ZodType> = StreamDef<Key, LiveListFrameSchema<Item>> & {
  // A method, so a list of Runs is still a LiveListDef of unknown items (methods compare their parameters both ways).
  readonly list: { readonly item: Item; idOf(item: z.output<Item>): string };
};

/** A live list keyed by `key` (a session, say) of `item`s named by `idOf`. One frame costs one unit of credit. */
export function liveList<Key extends z.ZodType, Item extends z.ZodType>(
  key: Key,
  item: Item,
  idOf: (item: z.output<Item>) => string,
): LiveListDef<Key, Item> {
  const frame = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('snapshot'), items: z.array(item) }),
    z.object({ kind: z.literal('upsert'), item }),
    z.object({ kind: z.literal('remove'), id: z.string().min(1).max(200) }),
  ]) as unknown as LiveListFrameSchema<Item>;
  return { kind: 'stream', key, item: frame, weight: () => 1, list: { item, idOf } };
}

export type ContractMap = Record<string, CallDef | StreamDef>;

export type CallNames<C extends ContractMap> = { [K in keyof C]: C[K] extends CallDef ? K : never }[keyof C] & string;
export type StreamNames<C extends ContractMap> = { [K in keyof C]: C[K] extends StreamDef ? K : never }[keyof C] &
  string;

export type CallReq<C extends ContractMap, K extends CallNames<C>> = C[K] extends CallDef<infer R> ? z.input<R> : never;
export type CallRes<C extends ContractMap, K extends CallNames<C>> =
  C[K] extends CallDef<z.ZodType, infer R> ? z.output<R> : never;
export type StreamKey<C extends ContractMap, K extends StreamNames<C>> =
  C[K] extends StreamDef<infer Key> ? z.input<Key> : never;
export type StreamItem<C extends ContractMap, K extends StreamNames<C>> =
  C[K] extends StreamDef<z.ZodType, infer I> ? z.output<I> : never;
// A live list is told apart by its `list` field (structural checks against LiveListDef itself would compare the
// frame schemas' variance, which zod's types do not let TypeScript settle).
export type LiveListNames<C extends ContractMap> = { [K in keyof C]: C[K] extends { readonly list: object } ? K : never }[keyof C] & string;
export type LiveListKey<C extends ContractMap, K extends LiveListNames<C>> = C[K] extends { readonly key: infer Key extends z.ZodType } ? z.input<Key> : never;
export type LiveListItem<C extends ContractMap, K extends LiveListNames<C>> =
  C[K] extends { readonly list: { readonly item: infer I extends z.ZodType } } ? z.output<I> : never;
