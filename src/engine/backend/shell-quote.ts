/**
 * POSIX shell quoting of one argv word, for command lines the operator rewrites into `sh -c`.
 */

/** Words made only of these characters mean the same to a shell quoted or not. */
const SHELL_NEUTRAL_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * The word as `sh -c` source that yields exactly that one word: unchanged when it is made only of
 * shell-neutral characters, otherwise single-quoted with each `'` written as `'\''` (the empty
 * word becomes `''`).
 */
export function shellQuotePosix(word: string): string {
  if (SHELL_NEUTRAL_WORD.test(word)) return word;
  return `'${word.split("'").join("'\\''")}'`;
}
