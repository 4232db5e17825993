import { standInEvents } from './standInEvents';

/** Electron's dialog: an error box is recorded (and printed), never shown. */
export const dialog = {
  showErrorBox(title: string, content: string): void {
    console.error(`[electron stand-in] error box: ${title}: ${content}`);
    standInEvents.record({ kind: 'dialog', title, content });
  },
};

/** Electron's shell: a link handed to the system browser is recorded, nothing is opened. */
export const shell = {
  openExternal(url: string): Promise<void> {
    standInEvents.record({ kind: 'open-external', url });
    return Promise.resolve();
  },
};
