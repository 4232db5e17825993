import { useEffect, useRef, useState } from 'react';
import type { ChangeTurn, RestorePlan, Snapshot } from '../../../src-preload/contract';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';
import { actionWord, restoreSummary } from './restoreSummary';

type Step = { kind: 'planning' } | { kind: 'plan'; plan: RestorePlan } | { kind: 'restoring'; plan: RestorePlan } | { kind: 'failed'; message: string; plan: RestorePlan | null };

interface Props {
  snapshot: Snapshot;
  onDone(turn: ChangeTurn): void;
  onCancel(): void;
}

/**
 * "Restore to here", step two: what the restore would do to each file (changes.restorePlan, nothing touched yet),
 * then Restore or Cancel. The restore is itself a turn, so it shows in the list and can be undone like any other.
 */
export function RestoreConfirm({ snapshot, onDone, onCancel }: Props) {
  const client = useConnection((s) => s.client);
  const [step, setStep] = useState<Step>({ kind: 'planning' });
  const confirm = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!client) return;
    let live = true;
    client.call('changes.restorePlan', { snapshotId: snapshot.id }).then(
      (plan) => live && setStep({ kind: 'plan', plan }),
      (e: unknown) => live && setStep({ kind: 'failed', message: errorMessage(e), plan: null }),
    );
    return () => {
      live = false;
    };
  }, [client, snapshot.id]);

  useEffect(() => {
    if (step.kind === 'plan') confirm.current?.focus();
  }, [step.kind]);

  async function restore(plan: RestorePlan): Promise<void> {
    if (!client) return;
    setStep({ kind: 'restoring', plan });
    try {
      onDone(await client.call('changes.restore', { snapshotId: snapshot.id }));
    } catch (e) {
      setStep({ kind: 'failed', message: errorMessage(e), plan });
    }
  }

  const plan = step.kind === 'planning' ? null : step.plan;
  return (
    <div
      className="restore-confirm"
      role="group"
      aria-label="Restore to this snapshot"
      data-testid="restore-confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      {step.kind === 'planning' && (
        <p className="muted" role="status">
          Working out which files would change…
        </p>
      )}
      {plan && (
        <>
          <p data-testid="restore-summary">{restoreSummary(plan)}</p>
          {plan.files.length > 0 && (
            <ul className="restore-files" data-testid="restore-files">
              {plan.files.map((file) => (
                <li key={file.path} data-action={file.action}>
                  <code>{file.path}</code> <span className={`badge restore-${file.action}`}>{actionWord(file.action)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {step.kind === 'failed' && (
        <p className="item-error" role="alert" data-testid="restore-error">
          {step.message}
        </p>
      )}
      <div className="restore-actions">
        <button
          ref={confirm}
          type="button"
          data-testid="restore-confirm-button"
          disabled={!client || !plan || plan.files.length === 0 || step.kind === 'restoring'}
          onClick={() => plan && void restore(plan)}
        >
          {step.kind === 'restoring' ? 'Restoring…' : `Restore ${plan ? plan.files.length : ''} file(s)`}
        </button>
        <button type="button" className="secondary" data-testid="restore-cancel" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
