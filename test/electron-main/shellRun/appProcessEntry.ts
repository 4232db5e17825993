// The entry of the app process the shell tests start: the driver first (so it sees every window from the start),
// then the Electron shell itself, exactly as src-main/electron-main/main.ts is written. The tests' bundle resolves
// `electron` to the stand-in (shellHarness.ts); nothing else does.
import './appProcessDriver';
import '../../../src-main/electron-main/main';
