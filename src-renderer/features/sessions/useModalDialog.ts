import { useEffect, type RefObject } from 'react';

/**
 * Shows a <dialog> as a modal while the component is mounted (the page behind it inert, Tab kept inside) and, once it
 * is gone, gives focus back to what had it before (the button that opened it), if that is still on the page.
 */
export function useModalDialog(dialog: RefObject<HTMLDialogElement | null>, focusFirst: () => void): void {
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    focusFirst();
    return () => {
      element?.close();
      if (opener?.isConnected) opener.focus();
    };
    // Once per dialog: focusFirst is read at mount only.
  }, [dialog]);
}
