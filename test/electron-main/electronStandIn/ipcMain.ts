import { EventEmitter } from 'node:events';

/** Electron's ipcMain: an EventEmitter the pages' frames send to (webFrameMain.ts emits on it). */
export const ipcMain = new EventEmitter();
