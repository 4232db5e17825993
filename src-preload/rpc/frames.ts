import { z } from 'zod';
import { ErrorBody } from '../contract/errors';

/** Frames larger than this are refused before parsing, so a hostile page cannot make the host parse 1 GB of JSON. */
export const MAX_FRAME_CHARS = 4 * 1024 * 1024;

// No protocol version is sent: the page always comes from the host it talks to (the server or the app:// protocol
// serves the renderer built with it), and both sides parse every frame with these schemas, so a stale page gets
// typed errors, never misread frames; reloading it fetches the matching one.

const Id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Credit = z.number().int().positive().max(1 << 30);

export const ClientFrame = z.discriminatedUnion('t', [
  z.object({ t: z.literal('call'), id: Id, method: z.string().max(200), params: z.unknown() }),
  z.object({ t: z.literal('sub'), id: Id, stream: z.string().max(200), key: z.unknown(), credit: Credit }),
  z.object({ t: z.literal('credit'), id: Id, credit: Credit }),
  z.object({ t: z.literal('unsub'), id: Id }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

export const ServerFrame = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ok'), id: Id, result: z.unknown() }),
  /** `id` is null when the failing frame could not be read far enough to know its id. */
  z.object({ t: z.literal('err'), id: Id.nullable(), error: ErrorBody }),
  z.object({ t: z.literal('item'), id: Id, item: z.unknown() }),
  /** Consecutive items of one subscription in one frame (RpcServerOptions.batch), in order. */
  z.object({ t: z.literal('items'), id: Id, items: z.array(z.unknown()) }),
  z.object({ t: z.literal('end'), id: Id, error: ErrorBody.optional() }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
