// The flags that shape how a page is read, as the tools' arguments (each checked by the tool's own schema): rendering
// and `--actions`, the parts of a page, and its structured data.
import { InvalidArgumentError } from '../errors.js';
import { CLI_SENTENCES } from '../output/notices.js';
import type { Values } from './command-line.js';

/** --render and --wait-for as the tools' arguments. */
export function renderFlags(values: Values): { render?: string; wait_for?: string } {
  return {
    ...(values.render !== undefined && { render: values.render }),
    ...(values['wait-for'] !== undefined && { wait_for: values['wait-for'] }),
  };
}

/** --selector and --exclude-selector as the tools' arguments; the tool's schema checks each selector. */
export function selectFlags(values: Values): { selector?: string; exclude_selectors?: string[] } {
  return {
    ...(values.selector !== undefined && { selector: values.selector }),
    ...(values['exclude-selector'] !== undefined && { exclude_selectors: values['exclude-selector'] }),
  };
}

/** --actions: the JSON list the tools take, parsed here; what is in it is the tool's to check. */
export function actionsFlag(values: Values): { actions?: unknown } {
  if (values.actions === undefined) return {};
  try {
    return { actions: JSON.parse(values.actions) as unknown };
  } catch (error) {
    throw new InvalidArgumentError('--actions', CLI_SENTENCES.actionsNotJson((error as Error).message));
  }
}

/** --structured-data and --tables as the tools' arguments. */
export function dataFlags(values: Values): { structured_data?: true; tables?: string } {
  return {
    ...(values['structured-data'] && { structured_data: true as const }),
    ...(values.tables !== undefined && { tables: values.tables }),
  };
}
