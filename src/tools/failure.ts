// Any failure becomes one tool output: the message an agent can act on, its error class and stable code, and the
// outcome status. Front doors translate this once each (MCP isError, HTTP success:false, CLI stderr + exit code).
import type { Outcome } from '../engine.js';
import { errorMessage, FetchError, HttpStatusError, SecurityError, WebReaderError } from '../errors.js';
import type { ToolOutput } from './types.js';

export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof SecurityError && error.code === 'ROBOTS_DENIED') return 'robots_denied';
  if (error instanceof HttpStatusError && (error.status === 401 || error.status === 403)) return 'blocked';
  if (error instanceof FetchError && error.code === 'RESPONSE_TOO_LARGE') return 'too_large';
  return 'error';
}

export function failureOutput(error: unknown): ToolOutput {
  const known = error instanceof WebReaderError;
  return {
    text: errorMessage(error),
    structured: {
      status: outcomeOfError(error),
      error: {
        type: known ? error.name : 'Error',
        code: known ? error.code : 'INTERNAL',
        message: errorMessage(error),
      },
    },
    isError: true,
  };
}
