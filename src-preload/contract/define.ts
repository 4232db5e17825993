import type { z } from 'zod';

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
