// What the fake changes agent's turn does (fakeChangesAgent.ts), shared with the test that checks it: importing the
// agent itself would start it reading the test's stdin.

export const NOTES = '# Notes\n\nwritten by the agent\n';
/** The shell run's command: two hunks in b.txt (lines 2 and 19), c.txt gone. */
export const SHELL_COMMAND = "sed -i 's/^two$/TWO/; s/^nineteen$/NINETEEN/' b.txt && rm c.txt";
