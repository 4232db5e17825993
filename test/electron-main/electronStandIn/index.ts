// The `electron` module as the tests' bundle of src-main/electron-main sees it (aliased there, nowhere else). See
// README.md beside this file for what is implemented and which documented behaviour of Electron 45 it follows.
export { app } from './app';
export { BrowserWindow } from './browserWindow';
export { ipcMain } from './ipcMain';
export { MessageChannelMain, MessagePortMain } from './messagePortMain';
export { protocol } from './protocol';
export { dialog, shell } from './recorders';
export { session } from './session';
export { utilityProcess } from './utilityProcess';
