// Messages in the words of the command line: a tool's argument named by the flag it comes from, so an error a tool
// raises (`max_length: …`, `render "auto" or "always"`) reads as the flag a person typed (`--max-length …`).
import { FLAGS, type Flag, type FlagName } from './flags.js';

/** The commands a flag applies to, as words ("read, scrape and crawl"). */
export function commandsOf(name: FlagName): string {
  const commands = (FLAGS[name] as Flag).commands;
  if (commands === 'every') return 'every command';
  return commands.length === 1 ? commands[0]! : `${commands.slice(0, -1).join(', ')} and ${commands.at(-1)}`;
}

/** The flag a tool argument comes from (`max_length` → `--max-length`). */
export function flagOfArgument(argument: string): string | undefined {
  const entry = Object.entries(FLAGS).find(([, flag]: [string, Flag]) => flag.argument === argument);
  return entry && `--${entry[0]}`;
}

/**
 * A tool's message in the words of the command line: the tool's prefix dropped, an argument's path
 * (`allowed_domains.0`) named by its flag, and every other argument name with an underscore (`continue_from`,
 * `exclude_selectors`) too. Single-word names (`raw`, `section`) are left alone: they are ordinary words as well.
 */
export function inFlagWords(message: string): string {
  let plain = message.replace(/^Invalid arguments for tool [a-z_]+: /, '');
  const argument = /^([a-z_]+)(?:\.\d+)*(?=[: ])/.exec(plain);
  const flag = argument && flagOfArgument(argument[1]!);
  if (flag) plain = `${flag}${plain.slice(argument[0].length)}`;
  for (const [name, spec] of Object.entries(FLAGS) as [string, Flag][]) {
    if (spec.argument?.includes('_')) plain = plain.replaceAll(new RegExp(`\\b${spec.argument}\\b`, 'g'), `--${name}`);
  }
  // An argument with a quoted value to call again with (`render "auto" or "always"`): the flag and its value; not
  // one already named by its flag above (`--selector "[[" is not valid`).
  for (const [name, spec] of Object.entries(FLAGS) as [string, Flag][]) {
    if (!spec.argument) continue;
    plain = plain.replaceAll(
      new RegExp(`(?<![\\w-])${spec.argument} "([^"\\s]+)"((?: or "[^"\\s]+")*)`, 'g'),
      (_all, value: string, others: string) =>
        `--${name} ${value}${others.replaceAll(/ or "([^"\s]+)"/g, ` or --${name} $1`)}`,
    );
  }
  // "--allowed-domains: --allowed-domains entries must …" says the flag once.
  return plain.replace(/^(--[a-z-]+): \1 /, '$1 ');
}

/** A result's text with its status line (a page that could not be read, and what to do) in command-line words. */
export function statusLineInFlagWords(text: string): string {
  if (!text.startsWith('Status: ')) return text;
  const end = text.indexOf('\n');
  return end === -1 ? inFlagWords(text) : `${inFlagWords(text.slice(0, end))}${text.slice(end)}`;
}
