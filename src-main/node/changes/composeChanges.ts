import type { changesContract } from '../../../src-preload/contract/changes';
import type { Handlers } from '../../../src-preload/rpc';
import type { AreaComposition } from '../base/areaComposition';
import { DomainError } from '../base/domainError';

// PLACEHOLDER while the changes area is built (issue 22): every call says it is not there yet.
const notYet = (): never => {
  throw new DomainError('unavailable', 'changes are not available yet');
};

export function composeChanges(): AreaComposition<null, Handlers<typeof changesContract>> {
  return {
    service: null,
    handlers: {
      'changes.turns': notYet,
      'changes.files': notYet,
      'changes.diff': notYet,
      'changes.verdict': notYet,
      'changes.timeline': notYet,
      'changes.restorePlan': notYet,
      'changes.restore': notYet,
    },
    dispose: () => undefined,
  };
}
