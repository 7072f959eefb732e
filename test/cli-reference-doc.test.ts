/**
 * docs/cli.md is the reference generated from the command's help texts: it is current, and the help
 * texts it is made of name every option the command accepts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CLI_REFERENCE_FILE, cliReferenceMarkdown, optionsOf } from '../scripts/cli-reference-doc';
import { cli } from './support/facade';

/** The commands, as the program help lists them under `Commands:`. */
function commandNames(): string[] {
  const help = cli({}, '--help').stdout;
  const section = help.slice(help.indexOf('\nCommands:\n') + '\nCommands:\n'.length).split('\n\n')[0];
  return section.split('\n').map(line => /^ {2}([a-z]+) /.exec(line)![1]);
}

/** What `cdk8s-dynamo COMMAND --help` prints. */
function helpText(command: string): string {
  const r = cli({}, command, '--help');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout;
}

const COMMAND_NAMES = commandNames();

/**
 * Whether the command takes the option (any other problem aside): run on a file that does not
 * exist, in a folder of its own, so that nothing is read or written; only an unknown option is a
 * usage error naming it.
 */
function accepts(command: string, option: string): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-reference-'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const r = cli({}, command, option, 'VALUE', 'a.yaml');
    return !(r.code === 2 && /unknown option/.test(r.stderr));
  } finally {
    process.chdir(cwd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('docs/cli.md', () => {
  test('the program help lists the commands', () => {
    expect(COMMAND_NAMES).toEqual(['render', 'validate', 'convert', 'diff', 'explain', 'eject', 'plan']);
  });

  test('is the text generated from src/cli/args.ts (npx projen docs:cli)', () => {
    expect(fs.readFileSync(CLI_REFERENCE_FILE, 'utf8')).toBe(cliReferenceMarkdown());
  });

  test('has each command\'s help, as --help prints it', () => {
    const page = cliReferenceMarkdown();
    for (const command of COMMAND_NAMES) {
      expect(page).toContain(`## ${command}\n\n\`\`\`text\n$ cdk8s-dynamo ${command} --help\n${helpText(command).trimEnd()}\n\`\`\``);
    }
  });

  test('each command\'s help lists exactly the options the command accepts', () => {
    const all = [...new Set(COMMAND_NAMES.flatMap(command => optionsOf(helpText(command))))];
    expect(all).toEqual(expect.arrayContaining(['--output', '--out', '--grove', '--no-lws', '--help', '--json']));
    // the check tells an option of the command from one of another command
    expect([accepts('diff', '--json'), accepts('render', '--json')]).toEqual([true, false]);
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
