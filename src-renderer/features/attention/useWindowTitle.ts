import { useEffect } from 'react';
import { useAttention, waitingTotal } from '../../ui/attention/attentionStore';
import { titleWithCount } from './windowAttention';

const BASE_TITLE = 'Omniscient Shell';

/** The window title counts what waits for the user, so it shows on a tab or a taskbar entry in the background. */
export function useWindowTitle(): void {
  const count = useAttention(waitingTotal);
  useEffect(() => {
    document.title = titleWithCount(BASE_TITLE, count);
  }, [count]);
}
