import type { z } from 'zod';

/** One thing wrong with a value, addressed by the dot path of the field ("plan.tasks.1.status", "(root)"). */
export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * zod's issues as field + problem, worded for a person fixing a file by hand: an unknown field is named itself
 * (not its parent), and a missing one says so instead of "received undefined".
 */
export function fieldProblems(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldProblem[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      return { field: [...path, issue.keys[0]].join('.'), problem: `unknown field${issue.keys.length > 1 ? `s ${issue.keys.map((k) => `"${k}"`).join(', ')}` : ''} (check the spelling)` };
    }
    if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      return { field: path.join('.') || '(root)', problem: `is missing (expected ${issue.expected})` };
    }
    return { field: path.join('.') || '(root)', problem: issue.message };
  });
}

export function describeProblems(problems: readonly FieldProblem[]): string {
  const [first, ...rest] = problems;
  const more = rest.length === 0 ? '' : `; and ${rest.map((p) => `"${p.field}" ${p.problem}`).join('; ')}`;
  return `field "${first.field}" ${first.problem}${more}`;
}
