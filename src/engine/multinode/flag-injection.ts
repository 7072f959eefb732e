/**
 * The flag-injection engine shared by the vLLM and SGLang multinode rewrites
 * (docs/design/render-multinode.md §2.6, §10.1): reading flags from a command line (separate or `=` values,
 * short aliases), and adding operator flags to a container's command line, wrapping it in
 * `sh -c "exec …"` when a flag value only works inside a shell.
 */
import { injectAfterPythonLaunch } from '../backend/python-launch';
import { ContainerJson } from '../pod/k8s-json';

/** Go's `strings.Fields` separators (Unicode white space). */
const FIELD_SEPARATORS = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/;

/** Splits text into words at white space, dropping empty words (Go `strings.Fields`). */
export function splitFields(text: string): string[] {
  return text.split(FIELD_SEPARATORS).filter(w => w !== '');
}

/** Characters that make a word need quoting inside a `sh -c` string. */
const BASH_C_SPECIAL = /[ \t\n'"\\{}[\]$`!]/;

/**
 * A word as `sh -c` source, the way the operator quotes it when it wraps a command line: unchanged
 * unless it holds white space, a quote, a backslash, a brace, a bracket, `$`, a backtick or `!`;
 * then it is double-quoted with `\`, `"`, `$` and backtick escaped by a backslash and each `'`
 * written as `'"'"'` (which, inside double quotes, is kept literally by the shell).
 */
export function shellQuoteForBashC(word: string): string {
  if (!BASH_C_SPECIAL.test(word)) return word;
  const escaped = word
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\$/g, '\\$')
    .replace(/`/g, '\\`')
    .replace(/'/g, '\'"\'"\'');
  return `"${escaped}"`;
}

/** Words quoted with `shellQuoteForBashC`, joined by single spaces. */
export function quoteWordsForBashC(words: readonly string[]): string {
  return words.map(shellQuoteForBashC).join(' ');
}

const PYTHON_PATH = /^(.*\/)?(python[0-9]*(\.[0-9]+)*)$/;

/** Whether a command's first word runs a Python interpreter (`python`, `python3.11`, `/usr/bin/python3`). */
export function isPythonCommand(word: string): boolean {
  return word === 'python' || word === 'python3' || PYTHON_PATH.test(word);
}

/** Frameworks whose launch line the engine can find inside a shell script. */
export type InjectableFramework = 'vllm' | 'sglang';

/**
 * Adds `flags` after the Python launch of `framework` in one shell-script word: after the
 * white-space-delimited word holding the last mention of the framework before the next `|`, `&`
 * or `;`, in every Python launch of the word. Returns the word unchanged when it has none.
 */
export function injectFlagsIntoScript(script: string, flags: string, framework: InjectableFramework): string {
  return injectAfterPythonLaunch(script, flags, framework);
}

/** How flags are added to a command line. */
export interface FlagInjection {
  /** Space-separated operator flags. */
  readonly flags: string;
  /** Whether a flag value needs a shell (arithmetic expansion), forcing the `sh -c` rewrite. */
  readonly needsShell: boolean;
  /** The framework whose launch is searched for in shell scripts. */
  readonly framework: InjectableFramework;
}

/**
 * The container with the flags added to its command line (a copy; the input is not changed):
 * - a Python `command` gets the flags appended as separate args, or, when a shell is needed,
 *   becomes `sh -c "exec <quoted command> <quoted args> <flags>"`;
 * - any other command (such as the default `/bin/sh -c`) gets the flags inserted into the first
 *   arg that holds a Python launch of the framework; none → unchanged.
 */
export function injectFlags(container: ContainerJson, injection: FlagInjection): ContainerJson {
  const command = (container.command ?? []).map(String);
  const args = (container.args ?? []).map(String);
  if (command.length > 0 && isPythonCommand(command[0])) {
    if (!injection.needsShell) return { ...container, args: [...args, ...splitFields(injection.flags)] };
    const line = args.length > 0 ? `${quoteWordsForBashC(command)} ${quoteWordsForBashC(args)}` : quoteWordsForBashC(command);
    return { ...container, command: ['sh', '-c'], args: [`exec ${line} ${injection.flags}`] };
  }
  for (let i = 0; i < args.length; i++) {
    const changed = injectFlagsIntoScript(args[i], injection.flags, injection.framework);
    if (changed !== args[i]) {
      const next = [...args];
      next[i] = changed;
      return { ...container, args: next };
    }
  }
  return container;
}

/** How a framework's flags may be spelled, for reading them back from a command line. */
export interface FlagSpellings {
  /** Short aliases and their canonical long flag (`-tp` → `--tensor-parallel-size`). */
  readonly aliases: Readonly<Record<string, string>>;
  /** Canonical flags whose underscore spelling (`--tensor_parallel_size`) is accepted too. */
  readonly canonical: ReadonlySet<string>;
  /** Canonical flags whose `flag=value` form is split into two words. */
  readonly valueFlags: ReadonlySet<string>;
}

/**
 * The words of a command line with the framework's flags in one spelling: aliases expanded,
 * underscores of known flags turned into dashes, and `flag=value` of known value flags split
 * into `flag` `value`. Other words, including other `=` words, are kept as they are.
 */
export function normalizeFlagWords(words: readonly string[], spellings: FlagSpellings): string[] {
  const out: string[] = [];
  for (const word of words) {
    const eq = word.indexOf('=');
    let flag = eq >= 0 ? word.slice(0, eq) : word;
    const alias = Object.prototype.hasOwnProperty.call(spellings.aliases, flag) ? spellings.aliases[flag] : undefined;
    if (alias !== undefined) {
      flag = alias;
    } else {
      const dashed = flag.replace(/_/g, '-');
      if (spellings.canonical.has(dashed)) flag = dashed;
    }
    if (eq < 0) out.push(flag);
    else if (spellings.valueFlags.has(flag)) out.push(flag, word.slice(eq + 1));
    else out.push(word);
  }
  return out;
}

/** Every white-space-separated word of a list of argv items. */
export function expandWords(items: readonly string[]): string[] {
  return items.flatMap(splitFields);
}

const GO_INT64 = /^[+-]?[0-9]+$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * The integer after the first word equal to `flag` whose next word is a base-10 int64 (Go
 * `strconv.ParseInt`); `fallback` when there is none.
 */
export function intFlagValue(words: readonly string[], flag: string, fallback = 1): number {
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i] !== flag || !GO_INT64.test(words[i + 1])) continue;
    const value = BigInt(words[i + 1]);
    if (value > INT64_MAX || value < INT64_MIN) continue;
    return Number(value);
  }
  return fallback;
}

/**
 * Whether `flag value` occurs: as two adjacent words, or as `flag value` / `flag=value` inside
 * one word.
 */
export function hasFlagValue(words: readonly string[], flag: string, value: string): boolean {
  const spaced = `${flag} ${value}`;
  const joined = `${flag}=${value}`;
  return words.some((word, i) => word.includes(spaced) || word.includes(joined) || (word === flag && words[i + 1] === value));
}
