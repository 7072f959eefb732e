/**
 * Kubernetes name formats, with the messages the API server prints for them.
 *
 * Internal module.
 */

/** Longest DNS-1123 subdomain. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FORMAT = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FORMAT}$`);

/**
 * What is wrong with `value` as a DNS-1123 subdomain (lower-case alphanumerics, `-` and `.`,
 * starting and ending alphanumeric, at most 253 characters): one message per broken condition,
 * none when it is valid. `unit`: how the length limit is worded (`bytes` where Kubernetes checks a
 * label key's prefix, `characters` for object names).
 */
export function dns1123SubdomainErrors(value: string, unit: LengthUnit = 'characters'): string[] {
  const errors: string[] = [];
  const valid = DNS1123_SUBDOMAIN.test(value);
  if (sizeOf(value, valid) > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLengthError(DNS1123_SUBDOMAIN_MAX_LENGTH, unit));
  if (!valid) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an " +
        `alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FORMAT}')`,
    );
  }
  return errors;
}

/**
 * How a length limit is worded. Kubernetes v1.36 words it in `characters` for DNS labels and
 * subdomains (k8s.io/apimachinery/pkg/util/validation) and in `bytes` for label keys and values
 * (k8s.io/apimachinery/pkg/api/validate/content); either way it counts UTF-8 bytes.
 */
export type LengthUnit = 'characters' | 'bytes';

/** `must be no more than <n> characters` (or `bytes`). */
export function maxLengthError(max: number, unit: LengthUnit = 'characters'): string {
  return `must be no more than ${max} ${unit}`;
}

/** Length as Go's `len` counts it: UTF-8 bytes. */
export function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * `byteLength` of a value checked against a format: a value of any format here is ASCII (`ascii`:
 * it matched), so its length is its size.
 */
function sizeOf(value: string, ascii: boolean): number {
  return ascii ? value.length : byteLength(value);
}

/** Kubernetes' format error: the message, examples and the regular expression used. */
function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`;
}

/** Longest DNS-1123 or DNS-1035 label. */
export const DNS_LABEL_MAX_LENGTH = 63;

const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);

/**
 * What is wrong with `value` as a DNS-1123 label (a subdomain without dots, at most 63 characters):
 * namespace names, port names of a Service.
 */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  const valid = DNS1123_LABEL_RE.test(value);
  if (sizeOf(value, valid) > DNS_LABEL_MAX_LENGTH) errors.push(maxLengthError(DNS_LABEL_MAX_LENGTH));
  if (!valid) {
    errors.push(DNS1123_SUBDOMAIN.test(value)
      ? 'must not contain dots'
      : regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL, 'my-name', '123-abc'));
  }
  return errors;
}

const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL}$`);

/** The format message of a DNS-1035 label. */
export const DNS1035_LABEL_FORMAT_ERROR = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL, 'my-name', 'abc-123');

/** What is wrong with `value` as a DNS-1035 label (a DNS-1123 label starting with a letter): Service names. */
export function dns1035LabelErrors(value: string): string[] {
  const errors: string[] = [];
  const valid = DNS1035_LABEL_RE.test(value);
  if (sizeOf(value, valid) > DNS_LABEL_MAX_LENGTH) errors.push(maxLengthError(DNS_LABEL_MAX_LENGTH));
  if (!valid) errors.push(DNS1035_LABEL_FORMAT_ERROR);
  return errors;
}

/**
 * What is wrong with `value` as a name that is a path segment (RBAC object names): it may not be
 * `.` or `..` and may not contain `/` or `%`.
 */
export function pathSegmentNameErrors(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return ['/', '%'].filter((c) => value.includes(c)).map((c) => `may not contain '${c}'`);
}

/**
 * A generateName checked as the name it starts: the API server replaces a trailing `-` (and the
 * character before it) by one letter before checking it with the kind's name rule.
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

const LABEL_KEY_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_NAME_RE = new RegExp(`^${LABEL_KEY_NAME}$`);
const LABEL_KEY_NAME_ERROR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Longest name part of a label key, and longest label value. */
export const LABEL_MAX_LENGTH = 63;

/**
 * What is wrong with `key` as a label key, annotation key or other qualified name: an optional
 * DNS-1123 subdomain prefix and `/`, then a name of at most 63 characters made of alphanumerics,
 * `-`, `_` and `.`, starting and ending alphanumeric.
 */
export function qualifiedNameErrors(key: string): readonly string[] {
  let errors = qualifiedNameResults.get(key);
  if (errors === undefined) {
    errors = Object.freeze(qualifiedNameErrorsOf(key));
    if (qualifiedNameResults.size >= MAX_QUALIFIED_NAME_RESULTS) qualifiedNameResults.clear();
    qualifiedNameResults.set(key, errors);
  }
  return errors;
}

/**
 * `qualifiedNameErrors` by key: every label and annotation key of every object is checked, and an
 * app's objects repeat a few keys. The lists are frozen: callers share them.
 */
const qualifiedNameResults = new Map<string, readonly string[]>();
/** Keys kept at most (then the results start anew). */
const MAX_QUALIFIED_NAME_RESULTS = 1024;

function qualifiedNameErrorsOf(key: string): string[] {
  const errors: string[] = [];
  const parts = key.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${regexError(LABEL_KEY_NAME_ERROR, LABEL_KEY_NAME, 'MyName', 'my.name', '123-abc')} ` +
      "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  const name = parts.length === 2 ? parts[1] : parts[0];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix, 'bytes').map((e) => `prefix part ${e}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (byteLength(name) > LABEL_MAX_LENGTH) errors.push(`name part ${maxLengthError(LABEL_MAX_LENGTH, 'bytes')}`);
  if (!LABEL_KEY_NAME_RE.test(name)) errors.push(`name part ${regexError(LABEL_KEY_NAME_ERROR, LABEL_KEY_NAME, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

const LABEL_VALUE = `(${LABEL_KEY_NAME})?`;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE}$`);

/** What is wrong with `value` as a label value: empty, or at most 63 characters of the label key name format. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  const valid = LABEL_VALUE_RE.test(value);
  if (sizeOf(value, valid) > LABEL_MAX_LENGTH) errors.push(maxLengthError(LABEL_MAX_LENGTH, 'bytes'));
  if (!valid) {
    errors.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', " +
      'and must start and end with an alphanumeric character', LABEL_VALUE, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}

/** What is wrong with `port` as a port number: it must be 1-65535. */
export function portNumberErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

const PORT_NAME_CHARACTERS = /^[-a-z0-9]+$/;
const A_LETTER = /[a-z]/;

/**
 * What is wrong with `name` as a port name (IANA_SVC_NAME): at most 15 characters of `[-a-z0-9]`,
 * at least one letter, no `--`, not starting or ending with `-`.
 */
export function portNameErrors(name: string): string[] {
  const errors: string[] = [];
  const valid = PORT_NAME_CHARACTERS.test(name);
  if (sizeOf(name, valid) > 15) errors.push(maxLengthError(15));
  if (!valid) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!A_LETTER.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}

/** Longest key of a ConfigMap or Secret (the limit of a DNS-1123 subdomain). */
const CONFIG_KEY_MAX_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH;
const CONFIG_KEY_FORMAT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_RE = new RegExp(`^${CONFIG_KEY_FORMAT}$`);

/**
 * What is wrong with `key` as a key of a ConfigMap or Secret, or as the `key` a `configMapKeyRef`
 * or `secretKeyRef` reads (apimachinery `IsConfigMapKey`): at most 253 characters of alphanumerics,
 * `-`, `_` and `.`, and not `.`, `..` or anything starting with `..` (a key names a file when the
 * object is mounted as a volume).
 */
export function configMapKeyErrors(key: string): string[] {
  const errors: string[] = [];
  const valid = CONFIG_KEY_RE.test(key);
  if (sizeOf(key, valid) > CONFIG_KEY_MAX_LENGTH) errors.push(maxLengthError(CONFIG_KEY_MAX_LENGTH));
  if (!valid) {
    errors.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY_FORMAT, 'key.name', 'KEY_NAME', 'key-name'));
  }
  if (key === '.' || key === '..') errors.push(`must not be '${key}'`);
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

/** Printable ASCII but `=`: the characters of an environment variable name. */
const ENV_VAR_NAME_RE = /^[\x20-\x3c\x3e-\x7e]*$/;

/**
 * What is wrong with `name` as the name of an environment variable, or as an `envFrom` prefix
 * (apimachinery `IsRelaxedEnvVarName`, the rule of Kubernetes v1.34 and later): printable ASCII
 * characters other than `=`. (An empty name is reported by the caller, as `Required value`.)
 */
export function envVarNameErrors(name: string): string[] {
  if (name === '') return ['environment variable name must be non-empty'];
  return ENV_VAR_NAME_RE.test(name) ? [] : ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
}
