/**
 * Desktop notifications behind one small interface: the browser shell uses the web Notification API (which also
 * works in Electron's renderer); a shell with a native way (Electron's main process) swaps in its own with
 * setNotifier().
 */
export type NotifyPermission = 'granted' | 'denied' | 'default' | 'unsupported';

export interface Notice {
  title: string;
  body: string;
  /** A notice with the same tag replaces the older one instead of piling up. */
  tag: string;
  /** The user clicked the notification. */
  onClick(): void;
}

export interface Notifier {
  permission(): NotifyPermission;
  /** Asks the user (the browser shows its own question); resolves with the answer. */
  requestPermission(): Promise<NotifyPermission>;
  /** Shows the notice if allowed; does nothing otherwise. */
  notify(notice: Notice): void;
}

const webNotifier: Notifier = {
  permission() {
    return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
  },
  async requestPermission() {
    if (typeof Notification === 'undefined') return 'unsupported';
    return Notification.requestPermission();
  },
  notify({ title, body, tag, onClick }) {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const notification = new Notification(title, { body, tag });
    notification.onclick = () => {
      notification.close();
      onClick();
    };
  },
};

let current: Notifier = webNotifier;

export function notifier(): Notifier {
  return current;
}

/** For a shell with its own notifications (or a test): replaces the web one. */
export function setNotifier(next: Notifier): void {
  current = next;
}
