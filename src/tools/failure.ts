// Any failure becomes one tool output: the message an agent can act on, its error class and stable code, and the
// outcome status. Front doors translate this once each (MCP isError, HTTP success:false, CLI stderr + exit code).
import { errorMessage, HttpStatusError, TimeoutError, WebReaderError } from '../errors.js';
import { outcomeOfError } from '../outcome.js';
import { QUOTE_MAX, quoteInput } from '../quote.js';
import type { ToolOutput } from './types.js';

// An unbroken run this long in an error message is an echo of some input (a URL, a header value, a name): no
// sentence of ours has one. Quoting it within bounds is the safety net behind each thrower's own quoteInput; the
// margin lets a quote that is already bounded (`'` + QUOTE_MAX characters + `…`) pass unchanged.
const LONG_RUN = new RegExp(`\\S{${QUOTE_MAX + 16},}`, 'g');

/** An error's message with every over-long run of the caller's (or a server's) input quoted within bounds. */
export function boundedMessage(error: unknown): string {
  return errorMessage(error).replace(LONG_RUN, (run) => quoteInput(run));
}

/** Seconds the failure says to wait before trying again: a busy queue's estimate, a 429/503's Retry-After. */
function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof HttpStatusError || error instanceof TimeoutError) return error.retryAfterSeconds;
  return undefined;
}

export function failureOutput(error: unknown): ToolOutput {
  const known = error instanceof WebReaderError;
  const retryAfter = retryAfterOf(error);
  const message = boundedMessage(error);
  return {
    text: message,
    structured: {
      status: outcomeOfError(error),
      // The server's answer, when one came (404, 403, 503…): no agent has to read it out of the message.
      ...(error instanceof HttpStatusError && { http_status: error.status }),
      error: {
        type: known ? error.name : 'Error',
        code: known ? error.code : 'INTERNAL',
        message,
        // Machine-readable, for a client that schedules its retry (QUEUE_TIMEOUT, RATE_LIMITED).
        ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
      },
    },
    isError: true,
  };
}
