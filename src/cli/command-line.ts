// argv → the command, its checked flags and its URL. Every usage mistake ends here as one InvalidArgumentError with
// one line a person can act on (exit 2): an unknown flag with the one it most likely meant, a flag of another
// command, a missing or out-of-range value. Nothing is fetched before the whole command line is right.
import { parseArgs } from 'node:util';
import { describeBounds, parseInteger, type ConfigFlags } from '../config.js';
import { errorMessage, InvalidArgumentError } from '../errors.js';
import { quoteInput } from '../quote.js';
import { closestName } from '../tools/run-tool.js';
import { CLI_SENTENCES } from '../output/notices.js';
import { COMMAND_NAMES, type Command } from './commands.js';
import { commandsOf } from './flag-words.js';
import { appliesTo, FLAGS, PARSE_OPTIONS, type Flag, type FlagName } from './flags.js';

export type Values = ReturnType<typeof parseArgs<{ options: typeof PARSE_OPTIONS; allowPositionals: true }>>['values'];

export interface CommandLine {
  /** Absent: no command was given (the MCP server on stdio), or only --help / --version. */
  readonly command: Command | undefined;
  readonly values: Values;
  /** The arguments after the command. */
  readonly operands: readonly string[];
}

/** Where to look for help, in an error line: the command's own help when there is one. */
export function helpHint(command: Command | undefined): string {
  return CLI_SENTENCES.helpHint(command);
}

/** The command named first, if it is one: also used to word an error found before the whole line is parsed. */
export function commandIn(argv: readonly string[]): Command | undefined {
  const first = argv.find((arg) => !arg.startsWith('-'));
  return COMMAND_NAMES.find((command) => command === first);
}

/** node:util's parse errors are long and speak of positionals; say what a person needs, in one line. */
function parseError(error: unknown, argv: readonly string[]): InvalidArgumentError {
  const code = (error as { code?: string }).code;
  const message = errorMessage(error);
  const hint = helpHint(commandIn(argv));
  const option = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const guess = closestName(option.replace(/^-+/, ''), Object.keys(FLAGS));
    return new InvalidArgumentError(option, CLI_SENTENCES.unknownOption(quoteInput(option), guess, hint));
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = option.replace(/^-+/, '') as FlagName;
    const flag: Flag | undefined = FLAGS[name];
    if (flag?.type === 'boolean') return new InvalidArgumentError(option, CLI_SENTENCES.takesNoValue(option, hint));
    // `--max-length -5`: the parser reads -5 as an option and the flag as missing its value; it was given, and is
    // below the bound.
    const given = argv[argv.indexOf(option) + 1];
    if (flag?.integer && given !== undefined && /^-\d/.test(given)) {
      return new InvalidArgumentError(option, CLI_SENTENCES.outOfBounds(option, describeBounds(flag.integer), given));
    }
    if (flag) return new InvalidArgumentError(option, CLI_SENTENCES.needsValue(option, flag.value ?? '', hint));
  }
  return new InvalidArgumentError('arguments', `${quoteInput(message)} ${hint}`);
}

/** `example.com/docs` is what people type: read over https, as browsers do. A URL with a scheme stays as given. */
export function withScheme(url: string): string {
  // `localhost:3000` is a host and port, not a scheme: a scheme is followed by something other than a digit.
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url)) return url;
  return `https://${url}`;
}

export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: PARSE_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseError(error, argv);
  }
  const { values, positionals } = parsed;
  const [first, ...operands] = positionals;
  let command: Command | undefined;
  if (first !== undefined) {
    command = COMMAND_NAMES.find((name) => name === first);
    if (!command) {
      const guess = closestName(first, COMMAND_NAMES);
      throw new InvalidArgumentError('command', CLI_SENTENCES.unknownCommand(quoteInput(first), guess));
    }
  }
  // A flag another command takes is refused, not ignored: `links --render always` would otherwise do nothing.
  for (const name of Object.keys(values) as FlagName[]) {
    if (!appliesTo(name, command ?? 'serve')) {
      throw new InvalidArgumentError(
        `--${name}`,
        CLI_SENTENCES.flagNotForCommand(`--${name}`, commandsOf(name), command ?? 'the MCP server', helpHint(command)),
      );
    }
  }
  // --host, --port and --token shape the HTTP server: without --http they would be ignored, so they are refused.
  const httpOnly = (['host', 'port', 'token'] as const).find((name) => values[name] !== undefined);
  if (httpOnly && !values.http) {
    throw new InvalidArgumentError(`--${httpOnly}`, CLI_SENTENCES.httpOnlyFlag(`--${httpOnly}`, helpHint('serve')));
  }
  // Whole numbers are checked here, against the bounds the flag table gives (the configuration's own for the
  // flags that set configuration), so `--timeout 0` or `--port 99999` never reaches a fetch or a bind.
  for (const [name, flag] of Object.entries(FLAGS) as [FlagName, Flag][]) {
    const raw = values[name];
    if (flag.integer && typeof raw === 'string') parseInteger(`--${name}`, raw, flag.integer);
  }
  return { command, values, operands };
}

/** A checked whole-number flag's value. */
export function integerFlag(values: Values, name: FlagName): number | undefined {
  const raw = values[name];
  if (typeof raw !== 'string') return undefined;
  const flag: Flag = FLAGS[name];
  return parseInteger(`--${name}`, raw, flag.integer ?? { min: 0 });
}

/** The one URL a command takes (with https:// when it has no scheme). */
export function oneUrl(command: Command, operands: readonly string[]): string {
  if (operands.length !== 1) {
    throw new InvalidArgumentError('url', CLI_SENTENCES.oneUrl(command, operands.length, helpHint(command)));
  }
  return withScheme(operands[0]!);
}

export function configFlags(values: Values): ConfigFlags {
  return {
    tools: values.tools,
    userAgent: values['user-agent'],
    fetchTimeoutMs: integerFlag(values, 'timeout'),
    maxResponseBytes: integerFlag(values, 'max-response-size'),
    maxOutputTokens: integerFlag(values, 'max-output-tokens'),
    allowPrivateHosts: values['allow-private-hosts']?.split(',').filter((host) => host.trim() !== ''),
    httpHost: values.host,
    httpPort: integerFlag(values, 'port'),
    httpToken: values.token,
  };
}
