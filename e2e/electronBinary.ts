import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const projectRoot = join(__dirname, '..');

/** Electron runs only where its binary was downloaded; everywhere else the same tests run against the web build. */
export function electronBinaryExists(): boolean {
  const pathFile = join(projectRoot, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(projectRoot, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim()));
}
