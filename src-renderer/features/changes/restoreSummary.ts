import type { RestorePlan } from '../../../src-preload/contract';

const actionWords = { restore: 'restored', delete: 'deleted', recreate: 'recreated' } as const;

/** "2 restored · 1 deleted · 1 recreated", or that nothing would change. */
export function restoreSummary(plan: RestorePlan): string {
  const parts = (['restore', 'delete', 'recreate'] as const)
    .map((action) => [action, plan.files.filter((f) => f.action === action).length] as const)
    .filter(([, n]) => n > 0)
    .map(([action, n]) => `${n} ${actionWords[action]}`);
  return parts.length === 0 ? 'The workspace already matches this snapshot: nothing would change.' : `${parts.join(' · ')}.`;
}

export function actionWord(action: RestorePlan['files'][number]['action']): string {
  return actionWords[action];
}
