import type { AgentResponse } from '../metaShell/spawnAgentTypes';

/** What the verifier concluded about a task; `gaps` is what is missing (handed to the executor's retry). */
export interface Verdict {
  passed: boolean;
  gaps: string;
}

export const VERDICT_FORMAT = 'Answer with JSON only: {"verdict":"pass"} or {"verdict":"fail","gaps":["what is missing or wrong", …]} (a first line of PASS or FAIL followed by the gaps also works).';

/**
 * Reads the verifier's answer. A verifier that did not succeed, or whose answer says neither pass nor fail, counts
 * as a failed verification (a gap): the circuit breaker then stops a run whose verifier keeps failing, rather than
 * letting unverified work through.
 */
export function readVerdict(response: AgentResponse): Verdict {
  if (response.status !== 'success') return { passed: false, gaps: `the verifier ended with "${response.status}": ${excerpt(response.data)}` };
  const text = response.data.trim();
  const json = parseJsonObject(text);
  if (json) {
    const verdict = typeof json.verdict === 'string' ? json.verdict.toLowerCase() : typeof json.passed === 'boolean' ? (json.passed ? 'pass' : 'fail') : null;
    if (verdict === 'pass' || verdict === 'fail') return { passed: verdict === 'pass', gaps: verdict === 'pass' ? '' : describeGaps(json.gaps) };
  }
  const word = /^\W*(pass(?:ed)?|fail(?:ed)?)\b[\s:.-]*([\s\S]*)$/i.exec(text);
  if (word) return { passed: /^pass/i.test(word[1]), gaps: /^pass/i.test(word[1]) ? '' : word[2].trim() || 'the verifier gave no details' };
  return { passed: false, gaps: `the verifier's answer has no verdict (${excerpt(text)}); ${VERDICT_FORMAT}` };
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(text);
  const candidate = fenced ? fenced[1] : text;
  const start = candidate.indexOf('{');
  const end = candidate.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  try {
    const value: unknown = JSON.parse(candidate.slice(start, end + 1));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function describeGaps(gaps: unknown): string {
  if (Array.isArray(gaps) && gaps.length > 0) return gaps.map((gap) => `- ${typeof gap === 'string' ? gap : JSON.stringify(gap)}`).join('\n');
  if (typeof gaps === 'string' && gaps.trim() !== '') return gaps.trim();
  return 'the verifier gave no details';
}

const excerpt = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}…` : text || '(no output)');
