import type { ContractMap } from '../../src-preload/contract/define';
import { RpcError, type ErrorCode } from '../../src-preload/contract/errors';
import type { Handlers, StreamSink } from '../../src-preload/rpc';
import { DomainError, type ErrorKind } from './base/domainError';

/**
 * The handler edge: where the host's handlers meet the RPC server, and the one place a domain error becomes a wire
 * error (base/domainError.ts says why). Domain code throws DomainErrors with a kind; this table gives each kind the
 * contract's code. Anything else is internal: logged through the host log, the client told only where to look.
 */
export const CODE_OF_KIND: Readonly<Record<ErrorKind, ErrorCode>> = {
  invalid_input: 'INVALID_PARAMS',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  state: 'INVALID_STATE',
  unavailable: 'UNAVAILABLE',
  limit: 'OVERFLOW',
  closed: 'CLOSED',
};

/** Where an error that is not the user's to act on goes (the host log). */
export type InternalErrorReport = (method: string, error: unknown) => void;

/** What the client sees of `error` thrown by (or ending) `method`. */
export function toRpcError(method: string, error: unknown, report: InternalErrorReport): RpcError {
  if (error instanceof DomainError) {
    const message = error.reference ? `${error.message} [${error.reference}]` : error.message;
    return new RpcError(CODE_OF_KIND[error.kind], message, error.issues);
  }
  // The bridge's own typed errors (a stream's handler built by the RPC layer, a schema the server checked) pass.
  if (error instanceof RpcError) return error;
  report(method, error);
  return new RpcError('INTERNAL', `${method} failed; the host log says why`);
}

/** A sink whose end() takes any error and hands the client its wire form. */
function edgeSink<T>(method: string, sink: StreamSink<T>, report: InternalErrorReport): StreamSink<T> {
  const wrapped: StreamSink<T> = {
    push: (item) => sink.push(item),
    end: (error) => sink.end(error === undefined ? undefined : toRpcError(method, error, report)),
    onFlowControl: (pause, resume) => sink.onFlowControl(pause, resume),
    get isPaused() {
      return sink.isPaused;
    },
    get isClosed() {
      return sink.isClosed;
    },
  };
  // Optional on a sink: producers look for it, so a sink without it stays without it.
  if (sink.pushText) wrapped.pushText = (text) => sink.pushText!(text);
  return wrapped;
}

type AnyHandler = (params: unknown, second: unknown, third?: unknown) => unknown;

/**
 * The host's handlers as the RPC server serves them: what a call throws or rejects with, and what a stream ends with,
 * goes through toRpcError.
 */
export function atHandlerEdge<C extends ContractMap>(contract: C, handlers: Handlers<C>, report: InternalErrorReport): Handlers<C> {
  const adapted: Record<string, AnyHandler> = {};
  for (const [name, handler] of Object.entries(handlers as Record<string, AnyHandler>)) {
    if (contract[name]?.kind === 'stream') {
      adapted[name] = (key, sink, ctx) => {
        try {
          return handler(key, edgeSink(name, sink as StreamSink<unknown>, report), ctx);
        } catch (error) {
          throw toRpcError(name, error, report);
        }
      };
    } else {
      // A handler that answers at once still does (callers in the host await either way).
      adapted[name] = (params, ctx) => {
        try {
          const result = handler(params, ctx);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw toRpcError(name, error, report);
              })
            : result;
        } catch (error) {
          throw toRpcError(name, error, report);
        }
      };
    }
  }
  return adapted as unknown as Handlers<C>;
}
