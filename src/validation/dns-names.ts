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
 * none when it is valid.
 */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters`);
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an " +
        `alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FORMAT}')`,
    );
  }
  return errors;
}
