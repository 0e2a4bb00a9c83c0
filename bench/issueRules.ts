// The 17 built-in rule patterns as they were at git 2e71f6d, frozen: one combined regex over them is
// the redaction row's baseline, whatever the rules become. The combined regex over today's rules is measured too.
export const ISSUE_RULE_SOURCES: readonly string[] = [
  String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{1,16384}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`,
  String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s:,-]{0,16384}`,
  String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`,
  String.raw`(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`,
  String.raw`\bglpat-[A-Za-z0-9_-]{20,255}`,
  String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,250}`,
  String.raw`https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,200}`,
  String.raw`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,247}\b`,
  String.raw`\bnpm_[A-Za-z0-9]{36}\b`,
  String.raw`\bsk-ant-[A-Za-z0-9_-]{20,250}`,
  String.raw`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,250}`,
  String.raw`\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`,
  String.raw`\beyJ[A-Za-z0-9_-]{5,2000}\.eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{10,2000}`,
  String.raw`\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/'"]{1,200}:)([^\s@/'"]{1,200})(?=@)`,
  String.raw`\b(Bearer\s+)([A-Za-z0-9._~+/-]{20,2000}=*)`,
  String.raw`\b((?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s{0,5}[:=]\s{0,5})(["']?)(?!\[REDACTED)([^\s"'` + '`' + String.raw`,;{}()<>]{4,200})`,
];
