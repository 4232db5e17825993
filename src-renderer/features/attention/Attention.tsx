import './attention.css';
import { NotificationOffer } from './NotificationOffer';
import { useAttentionSync } from './useAttentionSync';
import { useWaitingNotifications } from './useWaitingNotifications';
import { useWindowTitle } from './useWindowTitle';

/** What waits for the user, wherever they are: kept in sync, counted in the title, notified, and the offer to notify. */
export function Attention() {
  useAttentionSync();
  useWindowTitle();
  useWaitingNotifications();
  return <NotificationOffer />;
}
