import { useState } from 'react';
import { useAttention, waitingTotal } from '../../ui/attention/attentionStore';
import { notifier } from './notifier';

const ASKED_KEY = 'omni.notifications.asked';

function askedBefore(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) !== null;
  } catch {
    return true;
  }
}

/**
 * Asks, once and only when something first waits for the user, whether they want desktop notifications: the browser's
 * own question comes only after they say yes here, never out of the blue. Either answer is remembered.
 */
export function NotificationOffer() {
  const somethingWaits = useAttention((s) => waitingTotal(s) > 0);
  const [asked, setAsked] = useState(askedBefore);
  if (asked || !somethingWaits || notifier().permission() !== 'default') return null;

  const remember = (): void => {
    try {
      localStorage.setItem(ASKED_KEY, new Date().toISOString());
    } catch {
      // Without storage the offer comes back next time; nothing else depends on it.
    }
    setAsked(true);
  };

  return (
    <section className="notification-offer" role="region" aria-label="Desktop notifications" data-testid="notification-offer">
      <p>Get a desktop notification when an agent needs you or a run ends while this window is in the background?</p>
      <div className="notification-offer-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            remember();
            void notifier().requestPermission();
          }}
        >
          Turn on notifications
        </button>
        <button type="button" onClick={remember}>
          Not now
        </button>
      </div>
    </section>
  );
}
