// The command line's own sentences: what `web-reader` tells a person (or an agent running it) about the command line
// it was given. Named from src/output/notices.ts; the CLI's continuation lines are there, beside the tools' own.

export const CLI_SENTENCES = {
  helpHint: (command: string | undefined) => (command ? `Run web-reader ${command} --help.` : 'Run web-reader --help.'),
  unknownOption: (option: string, guess: string | undefined, hint: string) =>
    `Unknown option '${option}'${guess ? ` — did you mean --${guess}?` : '.'} ${hint}`,
  takesNoValue: (option: string, hint: string) => `${option} takes no value. ${hint}`,
  outOfBounds: (option: string, bounds: string, given: string) => `${option} must be ${bounds}, got '${given}'.`,
  needsValue: (option: string, value: string, hint: string) => `${option} needs a value: ${option} ${value}. ${hint}`,
  unknownCommand: (command: string, guess: string | undefined) =>
    `Unknown command '${command}'${guess ? ` — did you mean ${guess}?` : '.'} Run web-reader --help.`,
  flagNotForCommand: (flag: string, commands: string, command: string, hint: string) =>
    `${flag} applies to ${commands} only, not to ${command}. ${hint}`,
  httpOnlyFlag: (flag: string, hint: string) =>
    `${flag} applies to serve --http only; without --http the server speaks MCP on stdio. ${hint}`,
  oneUrl: (command: string, given: number, hint: string) =>
    `${command} takes exactly one URL; ${given === 0 ? 'none was given' : `${given} were given`}. ${hint}`,
  headerFormat: '--header takes "Name: value", e.g. --header "Cookie: a=b".',
  explainWithRaw: '--explain explains extraction, and --raw skips it: use one of them.',
  serveTakesNoUrl: 'serve takes no URL; its clients name the pages. Run web-reader serve --help.',
  searchNeedsQuery: 'search needs the words to search for: web-reader search "your query".',
  actionsNotJson: (why: string) =>
    `--actions takes a JSON list of actions, e.g. '[{"click":"#more"},{"scroll":"until_stable"}]': ${why}.`,
  screenshotNeedsOutput: 'screenshot needs the file to write the image to: web-reader screenshot <url> -o page.png.',
  screenshotWritten: (line: string, file: string) => `${line} Written to ${file}.`,
  onePageFlag: (flag: string) => `${flag} reads one page; with several URLs, read them one at a time, or drop ${flag}.`,
  severalPagesFlag: (flag: string) =>
    `${flag} times a read of several URLs; one page's read is bounded by FETCH_TIMEOUT. Drop ${flag}.`,
  continueTakesNoUrl: 'crawl --continue ID takes no URL: the crawl keeps its own.',
  wrotePages: (count: number, indexName: string, dir: string) =>
    `Wrote ${count} ${count === 1 ? 'page' : 'pages'} and ${indexName} to ${dir}`,
};
