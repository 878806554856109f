/**
 * Credential shapes the scrubber knows. Each rule replaces what matched (or only the `value`
 * group, keeping any key name or header) with `[REDACTED:<kind>]`. Order matters: specific
 * prefixes (sk-ant-, sk-or-, sk-proj-) come before the generic OpenAI `sk-`.
 */

export interface Rule {
  kind: string;
  re: RegExp;
  /** Extra check on the secret part, for shapes that ordinary text can also take. */
  accept?: (secret: string) => boolean;
}

/*
 * Every rule has a named group `value` (what is replaced) and may have `pre` (kept before it);
 * anything matched after `value` is kept too.
 */

/**
 * The generic `sk-` shape also occurs in ordinary names (`sk-learn-…`); real keys carry digits
 * or are one long unbroken run.
 */
export function looksLikeKey(secret: string): boolean {
  const body = secret.replace(/^sk-/, "");
  return (/[0-9]/.test(body) && /[A-Za-z]/.test(body)) || (body.length >= 40 && !body.includes("-"));
}

/** A base64 credential has mixed case or digits/padding; "Basic authentication" does not. */
export function looksBase64(secret: string): boolean {
  return (/[A-Z]/.test(secret) && /[a-z]/.test(secret)) || /[0-9+/=]/.test(secret);
}

// A token glued to a name by `_` or `-` (`no_such_tool_ghp_…`, `heavy-sk-proj-…`, an echoed argument) is still one.
const B = String.raw`(?<![A-Za-z0-9])`;
const E = String.raw`(?![A-Za-z0-9_-])`;

function prefixed(kind: string, prefix: string, body: string, accept?: (secret: string) => boolean): Rule {
  return { kind, re: new RegExp(`${B}(?<value>${prefix}${body})${E}`, "g"), ...(accept ? { accept } : {}) };
}

/** PEM markers of private keys (RSA, EC, DSA, OPENSSH, ENCRYPTED, PKCS#8, PGP). */
export const PEM_MARKER = /-----(BEGIN|END) [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;

/** The base64 body after a BEGIN line with no END (a truncated paste), literal "\n" escapes included. */
export const PEM_TRUNCATED_BODY = /^(?:\\n|[\sA-Za-z0-9+/=]){1,20000}/;

/** Webhook URLs before the token rules: their paths contain shapes the token rules would only half-match. */
export const BLOCK_RULES: readonly Rule[] = [
  { kind: "slack_webhook", re: /(?<pre>https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)(?<value>[A-Za-z0-9_/-]{20,})/g },
  { kind: "discord_webhook", re: /(?<pre>https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/)(?<value>[A-Za-z0-9_-]{20,})/g },
];

/** After the token rules, so a known token keeps its own kind; these skip what is already redacted. */
export const CONTEXT_RULES: readonly Rule[] = [
  // user:password@ in any URL; the user name stays, the password goes. The user may be empty (redis://:pw@host).
  { kind: "url_password", re: /(?<pre>\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s:/@[\]]{0,200}:)(?<value>(?!\[REDACTED)[^\s@/]{1,300})(?=@)/gi },
  // Cookie and Set-Cookie headers: every name=value pair is a session; the header name stays.
  { kind: "cookie", re: /(?<pre>\b(?:Set-)?Cookie["']?[ \t]*:[ \t]*)(?<value>(?!\[REDACTED)[^\s"'`][^\r\n"'`]{2,4000})/gi },
  // .netrc: `machine h login u password p`, on one line or several.
  { kind: "netrc_password", re: /(?<pre>\blogin[ \t\r\n]+\S{1,200}[ \t\r\n]+password[ \t\r\n]+)(?<value>(?!\[REDACTED)[^\s]{1,500})/g },
  // Docker's config.json `auths`: base64 of user:password.
  { kind: "docker_auth", re: /(?<pre>\\?"auth\\?"[ \t]*:[ \t]*\\?")(?<value>[A-Za-z0-9+/]{8,}={0,2})(?=\\?")/g, accept: looksBase64 },
  // mysql/mariadb take the password glued to -p (`mysql -uroot -ps3cret`).
  { kind: "password", re: /(?<pre>\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,300}?[ \t]-p)(?<value>(?!\[REDACTED)[^\s'"`;|&]{3,200})/g },
  { kind: "bearer", re: /(?<pre>\bBearer\s+)(?<value>[A-Za-z0-9\-._~+/]{12,}=*)/g, accept: (s) => /[0-9]/.test(s) || s.length >= 32 },
  { kind: "bearer", re: /(?<pre>\b(?:Token|Bot)\s+)(?<value>[A-Za-z0-9\-._~+/]{20,}=*)/g, accept: looksLikeKey },
  { kind: "basic_auth", re: /(?<pre>\bBasic\s+)(?<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g, accept: looksBase64 },
  // Other schemes in an Authorization header: the credentials go, the scheme stays.
  {
    kind: "authorization",
    re: /(?<pre>\b(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?(?:Digest|Token|Bot|ApiKey|Api-Key|Key|OAuth|Negotiate|NTLM|SSWS|AWS4-HMAC-SHA256|Bearer|Basic)[ \t]+)(?<value>(?!\[REDACTED)[^\s"';]{6,})/gi,
  },
  // A bare credential as the header value (no scheme).
  {
    kind: "authorization",
    re: /(?<pre>\b(?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?)(?<value>(?!\[REDACTED)[A-Za-z0-9\-._~+/]{12,}=*)(?=["'\s;]|$)/gim,
    accept: looksLikeKey,
  },
  { kind: "jwt", re: /(?<value>\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g },
];

export const TOKEN_RULES: readonly Rule[] = [
  prefixed("anthropic", "sk-ant-(?:api|admin|oat|ort)\\d{2}-", "[A-Za-z0-9_-]{20,}"),
  prefixed("openrouter", "sk-or-v\\d-", "[A-Za-z0-9]{20,}"),
  prefixed("openai", "sk-(?:proj|svcacct|admin)-", "[A-Za-z0-9_-]{20,}"),
  prefixed("stripe", "(?:sk|rk)_(?:live|test)_", "[A-Za-z0-9]{16,}"),
  prefixed("stripe", "whsec_", "[A-Za-z0-9]{24,}"),
  // Generic sk- last: OpenAI legacy keys, DeepSeek, Moonshot and other OpenAI-compatible vendors.
  prefixed("openai", "sk-", "[A-Za-z0-9_-]{20,}", looksLikeKey),
  prefixed("google", "AIza", "[0-9A-Za-z_-]{35}"),
  prefixed("google_oauth", "ya29\\.", "[0-9A-Za-z_-]{20,}"),
  prefixed("google_oauth", "GOCSPX-", "[0-9A-Za-z_-]{20,}"),
  prefixed("xai", "xai-", "[A-Za-z0-9]{20,}"),
  prefixed("groq", "gsk_", "[A-Za-z0-9]{20,}"),
  prefixed("huggingface", "hf_", "[A-Za-z0-9]{30,}"),
  prefixed("perplexity", "pplx-", "[A-Za-z0-9]{32,}"),
  prefixed("replicate", "r8_", "[A-Za-z0-9]{30,}"),
  prefixed("cerebras", "csk-", "[a-z0-9]{32,}"),
  prefixed("github", "gh[pousr]_", "[A-Za-z0-9]{30,}"),
  prefixed("github", "github_pat_", "[A-Za-z0-9_]{40,}"),
  prefixed("gitlab", "gl(?:pat|dt|rt|ptt|cbt|oas)-", "[A-Za-z0-9_-]{20,}"),
  prefixed("slack", "xox[abposr]-", "[A-Za-z0-9-]{10,}"),
  prefixed("slack", "xapp-\\d-", "[A-Za-z0-9-]{20,}"),
  prefixed("aws_access_key", "(?:AKIA|ASIA|ABIA|ACCA)", "[A-Z0-9]{16}"),
  prefixed("npm", "npm_", "[A-Za-z0-9]{36}"),
  prefixed("pypi", "pypi-AgEIcHlwaS5vcmc", "[A-Za-z0-9_-]{50,}"),
  prefixed("docker", "dckr_pat_", "[A-Za-z0-9_-]{20,}"),
  prefixed("digitalocean", "do[por]_v1_", "[a-f0-9]{64}"),
  prefixed("shopify", "shp(?:at|ca|pa|ss)_", "[a-fA-F0-9]{32}"),
  prefixed("linear", "lin_api_", "[A-Za-z0-9]{32,}"),
  prefixed("sendgrid", "SG\\.", "[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{20,}"),
  prefixed("atlassian", "ATATT3", "[A-Za-z0-9_=-]{40,}"),
  prefixed("notion", "(?:secret_|ntn_)", "[A-Za-z0-9]{40,}"),
  prefixed("age_secret_key", "AGE-SECRET-KEY-1", "[0-9A-Z]{58}"),
];
