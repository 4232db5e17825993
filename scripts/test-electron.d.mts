// Types of test-electron.mjs for the TypeScript that imports it (test/electron-main/testElectronScript.test.ts).
export interface ElectronAvailability {
  available: boolean;
  binary?: string;
  why?: string;
}

export declare function electronAvailability(root?: string, env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): ElectronAvailability;
