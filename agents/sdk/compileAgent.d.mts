// Types of compileAgent.mjs for the TypeScript that imports it (the `omni agent build` command).
export declare const SDK_PACKAGE: 'omni-sdk';

export declare function agentToolchain(root: string): { asc: string; sdkDir: string; compilerModule: string };

export type CompileOutcome = { ok: true; bytes: Buffer; diagnostics: string } | { ok: false; diagnostics: string };

export declare function compileAgent(options: { root: string; entry: string; cwd: string }): CompileOutcome;
