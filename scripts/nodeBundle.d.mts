// Types of nodeBundle.mjs for the TypeScript that imports it (test/omniCli.ts builds the CLI the tests run).
import type { BuildResult } from 'esbuild';

export declare const nodeExternals: string[];

export declare const companionEntries: Record<string, string>;

export declare function bundleForNode(options: { entryPoints: string[] | Record<string, string>; outfile?: string; outdir?: string }): Promise<BuildResult>;
