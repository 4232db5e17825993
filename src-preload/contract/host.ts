import { z } from 'zod';
import { call } from './define';

export const HostInfo = z.object({
  version: z.string(),
  /** The app home ($OMNI_HOME); shown so the user knows where data lives. */
  home: z.string(),
  pid: z.number().int(),
  startedAt: z.number().int(),
  platform: z.string(),
  /** The user's home folder, a sensible default when choosing a workspace. */
  userHome: z.string(),
});
export type HostInfo = z.infer<typeof HostInfo>;

export const hostContract = {
  'host.info': call(z.object({}), HostInfo),
};
