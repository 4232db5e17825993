import { z } from 'zod';
import { call, liveList } from './define';

export const SessionId = z.string().regex(/^ses_[A-Za-z0-9_-]{8,64}$/, 'expected a session id like "ses_…"');

export const Session = z.object({
  id: SessionId,
  name: z.string(),
  /** Absolute real path of the workspace folder. */
  workspace: z.string(),
  status: z.enum(['open', 'closed']),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Session = z.infer<typeof Session>;

const SessionName = z.string().trim().min(1, 'a name cannot be empty').max(200, 'at most 200 characters');

export const SessionChange = z.object({ kind: z.enum(['created', 'updated']), session: Session });
export type SessionChange = z.infer<typeof SessionChange>;

export const sessionContract = {
  'session.create': call(
    z.object({
      workspace: z.string().min(1, 'give the workspace folder as an absolute path').max(4096),
      name: SessionName.optional(),
    }),
    Session,
  ),
  'session.list': call(z.object({ includeClosed: z.boolean().optional() }), z.array(Session)),
  'session.rename': call(z.object({ id: SessionId, name: SessionName }), Session),
  'session.close': call(z.object({ id: SessionId }), Session),
  'session.reopen': call(z.object({ id: SessionId }), Session),
  /** The sessions, then every create/rename/close/reopen, so several windows stay in step. */
  'session.watch': liveList(z.object({ includeClosed: z.boolean().optional() }), Session, (session) => session.id),
};
