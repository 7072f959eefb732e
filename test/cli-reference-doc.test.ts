/**
 * docs/cli.md is the reference generated from the argument parser's help texts: it is current, and
 * the help texts it is made of name every option the parser accepts.
 */
import * as fs from 'fs';
import { CLI_REFERENCE_FILE, cliReferenceMarkdown, optionsOf } from '../scripts/cli-reference-doc';
import { COMMAND_NAMES, helpText, parseCommandLine, UsageError } from '../src/cli/args';

/** Whether the parser takes the option for the command (any other usage problem aside). */
function accepts(command: string, option: string): boolean {
  try {
    parseCommandLine([command, option, 'VALUE', 'a.yaml']);
    return true;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return !/unknown option/.test(e.message);
  }
}

describe('docs/cli.md', () => {
  test('is the text generated from src/cli/args.ts (npx projen docs:cli)', () => {
    expect(fs.readFileSync(CLI_REFERENCE_FILE, 'utf8')).toBe(cliReferenceMarkdown());
  });

  test('has each command\'s help, as --help prints it', () => {
    const page = cliReferenceMarkdown();
    for (const command of COMMAND_NAMES) {
      expect(page).toContain(`## ${command}\n\n\`\`\`text\n$ cdk8s-dynamo ${command} --help\n${helpText(command).trimEnd()}\n\`\`\``);
    }
  });

  test('each command\'s help lists exactly the options the parser accepts for it', () => {
    const all = [...new Set(COMMAND_NAMES.flatMap(command => optionsOf(helpText(command))))];
    expect(all).toEqual(expect.arrayContaining(['--output', '--out', '--grove', '--no-lws', '--help', '--json']));
    for (const command of COMMAND_NAMES) {
      const listed = optionsOf(helpText(command)).sort();
      expect([command, listed]).toEqual([command, all.filter(option => accepts(command, option)).sort()]);
    }
  });

  test('the options of a help text are read from its option lines only', () => {
    expect(optionsOf('usage: x [--a]\n\n  --out DIR    write --there\n  --grove | --no-grove   g\n  -h, --help   h\n  --                       end\n'))
      .toEqual(['--out', '--grove', '--no-grove', '--help']);
  });
});
