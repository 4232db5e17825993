import { z } from 'zod';
import { describeProblems, fieldProblems, type FieldProblem } from './schemaProblems';

/**
 * What an agent returns in `data` with `status: "checkpoint"` (spec/host-interface-v3.1.md §2): it needs a decision
 * (options as buttons) or a human action (free text, "Create the OAuth app, then press Continue"). Unknown extra
 * fields are ignored; the ones the host acts on are checked.
 */
export const CheckpointSignalSchema = z
  .object({
    type: z.literal('checkpoint'),
    reason: z.enum(['decision_required', 'human_action']),
    message: z.string().trim().min(1, 'must say what the user is asked'),
    options: z.array(z.string().trim().min(1, 'an option must not be empty')).max(20, 'at most 20 options fit a dialog'),
    /** The agent's name for the step it resumes at; single-use within a session. */
    resume_id: z
      .string()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be letters, digits and . _ : - (e.g. "step_2_auth_decision")'),
  })
  .superRefine((signal, ctx) => {
    if (signal.reason === 'decision_required' && signal.options.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'must offer at least one option for a decision_required checkpoint' });
    }
    const seen = new Set<string>();
    signal.options.forEach((option, i) => {
      if (seen.has(option)) ctx.addIssue({ code: 'custom', path: ['options', i], message: `repeats "${option}"` });
      seen.add(option);
    });
  });

export type CheckpointSignal = z.infer<typeof CheckpointSignalSchema>;

/** An agent's checkpoint data that the host cannot act on; `field` is the first bad one. */
export class CheckpointSignalError extends Error {
  readonly field: string;
  constructor(readonly problems: readonly FieldProblem[]) {
    super(`checkpoint signal: ${describeProblems(problems)}. Expected {"type":"checkpoint","reason":"decision_required"|"human_action","message":"…","options":[…],"resume_id":"…"}.`);
    this.name = 'CheckpointSignalError';
    this.field = problems[0].field;
  }
}

/** Parses AgentResponse.data (a JSON string) or an already parsed value as a checkpoint signal. */
export function parseCheckpointSignal(data: unknown): CheckpointSignal {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch (error) {
      throw new CheckpointSignalError([{ field: '(root)', problem: `is not JSON (${(error as Error).message})` }]);
    }
  }
  const parsed = CheckpointSignalSchema.safeParse(value);
  if (!parsed.success) throw new CheckpointSignalError(fieldProblems(parsed.error));
  return parsed.data;
}
