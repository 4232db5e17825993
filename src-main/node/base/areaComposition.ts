import type { AsyncDisposable } from './asyncDisposableStore';

/**
 * What each area of the host composes (`compose<Area>(deps)`): its service, its part of the contract's handlers,
 * and how it stops. The host lists the areas in order and hands each one's `dispose` to one AsyncDisposableStore.
 */
export interface AreaComposition<Service, AreaHandlers = Record<never, never>> extends AsyncDisposable {
  readonly service: Service;
  readonly handlers: AreaHandlers;
}
