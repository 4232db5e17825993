/**
 * Shapes of credentials that can be recognised without being registered: provider tokens with fixed prefixes,
 * JWTs, private key blocks, and credentials in the places text puts them (Authorization headers, URL user info,
 * well-known query parameters, SECRET=... assignments).
 *
 * What is deliberately NOT here: "high entropy" guesses. Ledger hashes (64 hex), uuids, ids, base64 blobs and
 * paths look random too, and the ledger must keep them. Every pattern below is anchored on a literal prefix or a
 * label that ordinary text does not produce, and starts only where a token can start (not in the middle of a
 * longer identifier or blob).
 */
export interface TokenPattern {
  /** Names the kind in the marker that replaces it: `[REDACTED:<label>]`. */
  readonly label: string;
  /**
   * Regular expression source (no flags; no capturing groups other than `(?<secret>…)`). When a `secret` group
   * is present it must end the match, and only it is replaced: `Authorization: Bearer [REDACTED:…]` keeps saying
   * what was there.
   */
  readonly source: string;
  /**
   * A plain expression that finds something in every text the pattern matches (usually its literal prefix). Texts
   * in which no anchor occurs, nearly all of them, are passed over after one cheap search; the full patterns run
   * only on the rest. Must never miss where `source` matches: a test checks it against samples of every shape.
   * Written with literals, `[sets]`, `(?:groups)`, `|` and `(?<![set])` only, each alternative at least three
   * characters long: the scrubber turns the anchors into a trigram prefilter (trigramPrefilter.ts), which refuses
   * anything else. A short anchor that ordinary words contain ("sk-" in "task-1") starts with the pattern's own
   * START, so those words do not send the text down the slow path.
   */
  readonly anchor: string;
  /** A second look at a match, for shapes that ordinary words can also take; false leaves the match as it is. */
  readonly accept?: (match: string) => boolean;
}

/**
 * Where a prefix is one ordinary words also hold ("sk-" in "task-1", "disk-usage-report-2024"), the token starts
 * only where the character before it could not be part of the same token. Tokens with a prefix nothing else
 * produces (ghp_, sk-ant-, AKIA, xoxb-, AIza, eyJ…eyJ) are found wherever they stand, glued to a word before or
 * after them included (`a_ghp_…`, `1sk-ant-…`, `id_xoxb-…`): text built by a program (a path, a session name, an
 * environment dump, `${NAME}_${TOKEN}`) puts them there, and a token that is missed is on disk for good.
 */
const START = '(?<![A-Za-z0-9_-])';

const hasDigitAndLetter = (text: string): boolean => /\d/.test(text) && /[A-Za-z]/.test(text);
/** Provider keys are base62: a body of lowercase hex only is a digest glued to a word ("task-<sha1>"), not a key. */
const keyLikeBody = (body: string): boolean => hasDigitAndLetter(body) && !/^[0-9a-f]+$/.test(body);
/** Eight characters a key body can hold: an anchor that "task-runner-…" does not pass, since anchors have no quantifiers. */
const EIGHT_ALNUM = '[A-Za-z0-9]'.repeat(8);

/** Order matters where shapes overlap: the first pattern that matches at a position wins (sk-ant- before sk-). */
export const TOKEN_PATTERNS: readonly TokenPattern[] = [
  {
    label: 'private-key',
    anchor: '-----BEGIN',
    // To the END line, or to the end of the text when it was cut off: half a key is still a key.
    source: '-----BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z]*-----[\\s\\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-----|$)',
  },
  { label: 'github-token', anchor: 'gh[pousr]_|github_pat_', source: '(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})' },
  { label: 'anthropic-key', anchor: 'sk-ant-', source: 'sk-ant-[A-Za-z0-9_-]{20,}' },
  {
    label: 'openai-key',
    anchor: `${START}sk-|sk-proj-|sk-svcacct-|sk-admin-|sk-${EIGHT_ALNUM}`,
    // At a token's start any key; glued to a word, the shapes no slug takes: a typed prefix (sk-proj-…), or a long
    // body without hyphens (sk-<48 base62>).
    source: `${START}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|sk-(?:proj-|svcacct-|admin-)[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{40,}`,
    // "sk-" followed by a long hyphenated word is prose or a slug; real keys mix letters and digits.
    accept: (match) => keyLikeBody(match.slice(3)),
  },
  // Sixteen characters after the prefix; what follows may be glued on (AKIA…EXAMPLE_prod, AKIA…XYZ): the key is the 20.
  { label: 'aws-access-key-id', anchor: 'AKIA|ASIA', source: '(?:AKIA|ASIA)[A-Z0-9]{16}' },
  { label: 'slack-token', anchor: 'xox[abprs]-|xapp-', source: '(?:xox[abprs]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})' },
  { label: 'google-api-key', anchor: 'AIza', source: 'AIza[0-9A-Za-z_-]{35}' },
  {
    label: 'stripe-key',
    anchor: '[sr]k_(?:live|test)_',
    source: '(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}',
    // "disk_test_readwriteperformance" is a test's name; keys mix letters and digits.
    accept: (match) => hasDigitAndLetter(match.slice(8)),
  },
  // Header and payload are base64url JSON objects, which always begin `{"`, i.e. "eyJ". The signature may be empty.
  { label: 'jwt', anchor: 'eyJ', source: 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*' },
  {
    label: 'authorization',
    anchor: '[Aa]uthorization|AUTHORIZATION|[Aa]pi-[Kk]ey',
    // `Authorization: Bearer x`, `"authorization": "Basic x"`, `Proxy-Authorization: x`, `X-Api-Key: x`.
    source:
      '(?:[Aa]uthorization|AUTHORIZATION|[Xx]-[Aa]pi-[Kk]ey|[Aa]pi-[Kk]ey)["\']?\\s*[:=]\\s*["\']?(?:(?:Bearer|bearer|Basic|basic|Token|token|Bot)\\s+)?(?<secret>[A-Za-z0-9._~+/=:-]{8,})',
  },
  {
    label: 'bearer-token',
    anchor: 'Bearer',
    // A bare "Bearer <credential>" (a curl line, a log of a request): the credential must look like one.
    source: '(?<![A-Za-z])Bearer\\s+(?<secret>[A-Za-z0-9._~+/=-]{16,})',
    accept: (match) => hasDigitAndLetter(match.slice(6)),
  },
  {
    label: 'url-password',
    anchor: '://',
    // scheme://user:password@host keeps the user; the password runs to the last "@" before the path, since an
    // unencoded "@" inside a password is common in hand-written URLs.
    source: '(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\\s/?#@:]*:(?<secret>[^\\s/?#]+)(?=@)',
  },
  {
    label: 'url-query-secret',
    anchor: '[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password|secret|sig|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature)=',
    source:
      '[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|client_secret|password|secret|sig|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature)=(?<secret>[A-Za-z0-9._~%+/=-]{8,})',
  },
  {
    label: 'secret-assignment',
    anchor: 'PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY',
    // Environment-style assignments (no spaces around "=", as in a shell, .env file or `env` output):
    // GITHUB_TOKEN=…, AWS_SECRET_ACCESS_KEY=…, DB_PASSWORD="…", glued to a lowercase word too (my_DB_PASSWORD=…).
    // `const SECRET_FIELD = 'x'` in code is not one.
    source:
      '(?<![A-Z0-9_])[A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*=["\']?(?<secret>[^\\s"\'&;]{8,})',
    // MAX_TOKENS=100000000 is a number, not a credential.
    accept: (match) => !/=["']?\d+$/.test(match),
  },
  {
    label: 'secret-field',
    anchor: '"(?:password|passwd|passphrase|client_secret|clientSecret|api_key|apiKey|access_token|accessToken|refresh_token|refreshToken|private_key|privateKey)"',
    // A secret-named member of JSON that was serialized into text (an error quoting a request body).
    source:
      '"(?:password|passwd|passphrase|client_secret|clientSecret|api_key|apiKey|access_token|accessToken|refresh_token|refreshToken|private_key|privateKey)"\\s*:\\s*"(?<secret>(?:[^"\\\\]|\\\\.)+)',
  },
];

/**
 * Names of object members whose value is a credential whatever it looks like (compared after turning camelCase and
 * kebab-case into snake_case and lowercasing: `apiKey`, `API-Key` and `api_key` are the same). Only names that mean
 * the credential itself: `token` or `secret` alone often name a handle or the name of a vault entry, which the audit
 * trail needs to keep.
 */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'password',
  'passwd',
  'passphrase',
  'client_secret',
  'api_key',
  'apikey',
  'x_api_key',
  'access_token',
  'refresh_token',
  'id_token',
  'session_token',
  'private_key',
  'secret_access_key',
  'aws_secret_access_key',
  'authorization',
  'proxy_authorization',
  'cookie',
  'set_cookie',
]);

/** Member names repeat endlessly across payloads ("terminalId", "cwd"): remember the answer, within bounds. */
const fieldNameCache = new Map<string, boolean>();

export function isSecretFieldName(name: string): boolean {
  let secret = fieldNameCache.get(name);
  if (secret === undefined) {
    secret = SECRET_FIELD_NAMES.has(
      name
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .replace(/-/g, '_')
        .toLowerCase(),
    );
    if (fieldNameCache.size >= 10_000) fieldNameCache.clear();
    fieldNameCache.set(name, secret);
  }
  return secret;
}
