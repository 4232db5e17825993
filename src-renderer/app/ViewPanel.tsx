import { useState, type ReactNode } from 'react';
import type { MainView } from '../ui/viewStore';

/**
 * One main view's tab panel. Its content is mounted the first time the view is shown and kept from then on (its
 * state, scroll position and subscriptions stay while another view is shown), so a view nobody opens costs the
 * page's start nothing: no render, no list fetched from the host.
 */
export function ViewPanel({ view, shown, focusable, children }: { view: MainView; shown: boolean; focusable: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(shown);
  // Derived state, set during render (React renders again at once, before committing): no frame shows an empty panel.
  if (shown && !opened) setOpened(true);
  return (
    <div className="view-panel" role="tabpanel" id={`panel-${view}`} aria-labelledby={`tab-${view}`} tabIndex={focusable ? 0 : undefined} hidden={!shown}>
      {opened ? children : null}
    </div>
  );
}
