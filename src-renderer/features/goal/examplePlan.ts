// The "Insert an example plan" action: a "## Plan" section in the form the deterministic planner reads
// (docs/orchestrator.md), added to context.md where it does not have one yet.

/** A small plan that shows each part of the form: ids, a dependency, instructions, and choosing the verifier. */
export const EXAMPLE_PLAN = `## Plan
- [01] Set up the project
  Create a README.md that says what the project is for.
- [02] Implement the data model (after 01)
  Create the tables tasks and tags.
- [03] Add tests for the data model (after 02)
  verifier: none
`;

/** Whether the text already has a plan heading ("## Plan", any level, an optional colon), as the host looks for it. */
export function hasPlanHeading(text: string): boolean {
  return text.split(/\r?\n/).some((line) => /^#{1,6}\s*plan\s*:?\s*$/i.test(line.trim()));
}

/**
 * The text with the example plan appended after what is there (a blank line between), and where the plan starts, so
 * the editor can put the cursor on it. Unchanged (start -1) when a plan section exists: two would confuse the reader,
 * and the planner reads only the first.
 */
export function withExamplePlan(text: string): { text: string; start: number } {
  if (hasPlanHeading(text)) return { text, start: -1 };
  const trimmed = text.replace(/\s+$/, '');
  const prefix = trimmed === '' ? '' : `${trimmed}\n\n`;
  return { text: `${prefix}${EXAMPLE_PLAN}`, start: prefix.length };
}
