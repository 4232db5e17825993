#!/usr/bin/env node
// The `omni` command. It runs the built CLI bundle; `npm install` builds it (the prepare script).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './runWithCodeCache.mjs';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'omni.cjs');
if (!existsSync(bundle)) {
  console.error('omni: the CLI is not built yet. Run `npm run build` in the project folder, then try again.');
  process.exit(2);
}
runWithCodeCache(bundle);
