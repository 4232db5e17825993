import { useEffect, useRef, useState, type RefObject } from 'react';
import { useConnection } from '../../bridge/connectionStore';
import { RunScreenController, type RunScreenEvents } from './runScreenController';

/**
 * A run's screen in `screenRef`, following the run over the current connection (and the next one after a
 * reconnection). Made once `pty` is known (it decides how line ends are drawn), again when the run changes; `reset`
 * runs before each new screen. The events are read when they fire, so a caller may pass new closures each render.
 */
export function useRunScreen(runId: string, pty: boolean | undefined, screenRef: RefObject<HTMLDivElement | null>, events: RunScreenEvents, reset?: () => void): RunScreenController | null {
  const client = useConnection((s) => s.client);
  const [controller, setController] = useState<RunScreenController | null>(null);
  const latest = useRef({ events, reset, client });
  latest.current = { events, reset, client };

  useEffect(() => {
    if (pty === undefined) return;
    latest.current.reset?.();
    const created = new RunScreenController(runId, pty, screenRef.current!, {
      onNotice: (notice) => latest.current.events.onNotice(notice),
      onComplete: () => latest.current.events.onComplete(),
      onProblem: (message) => latest.current.events.onProblem(message),
      onFindRequested: () => latest.current.events.onFindRequested(),
    }, latest.current.client);
    setController(created);
    return () => {
      created.dispose();
      setController(null);
    };
  }, [runId, pty, screenRef]);

  // A later connection (after a reconnection); the one current at creation is attached already.
  useEffect(() => {
    controller?.attach(client);
  }, [controller, client]);

  return controller;
}
