// The host and renderer tsconfigs resolve `electron` to this empty module, so any use of Electron there fails to
// typecheck with an error naming this file. Only src-main/electron-main and src-preload/preload.ts may use it.
export {};
