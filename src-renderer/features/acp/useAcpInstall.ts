import { useCallback, useEffect, useRef, useState } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { errorMessage } from '../../ui/errorMessage';

/** Lines of npm's output kept on screen: the last ones say what it is doing or why it failed. */
const SHOWN_LINES = 8;

export interface AcpInstall {
  /** The agent being installed, or null. */
  installing: string | null;
  lines: string[];
  error: string | null;
  install(agentId: string): void;
}

/** Installs a built-in agent's adapter (acp.install), keeping its progress; `onDone` runs once it is installed. */
export function useAcpInstall(onDone: () => void): AcpInstall {
  const client = useConnection((s) => s.client);
  const [installing, setInstalling] = useState<string | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const subscription = useRef<{ dispose(): void } | null>(null);
  useEffect(() => () => subscription.current?.dispose(), []);
  const install = useCallback(
    (agentId: string) => {
      if (!client) return;
      subscription.current?.dispose();
      setInstalling(agentId);
      setLines([]);
      setError(null);
      subscription.current = client.subscribe(
        'acp.install',
        { agentId },
        {
          onItem: (progress) => {
            const line =
              progress.kind === 'started' ? `Installing ${progress.package}@${progress.version} into ${progress.folder}` : progress.kind === 'output' ? progress.line : `Installed (${Math.round(progress.elapsedMs / 100) / 10} s)`;
            setLines((current) => [...current, line].slice(-SHOWN_LINES));
          },
          onEnd: (e) => {
            setInstalling(null);
            if (e) setError(errorMessage(e));
            else onDone();
          },
        },
      );
    },
    [client, onDone],
  );
  return { installing, lines, error, install };
}
