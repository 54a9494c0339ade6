// The sentences of the 2026-07-28 era's tasks (issue 25; src/server-modern-tasks.ts), re-exported by notices.ts.
import { quoteInput } from '../quote.js';

export const taskSentences = {
  /** A task's status message before its tool has said anything. */
  started: 'started',
  /** The status message of a task its client cancelled. */
  cancelled: 'cancelled by the client',
  /** tasks/* from a request that did not declare the extension (-32021). */
  undeclared: (method: string, extension: string) =>
    `${method} needs the ${extension} extension: declare it under _meta["io.modelcontextprotocol/clientCapabilities"]` +
    `.extensions on the request.`,
  /** tasks/* naming a task this server does not have (-32602). */
  unknown: (taskId: string) =>
    `Unknown task '${quoteInput(taskId, 80)}': it never existed here or its time to live has passed. Call the tool ` +
    'again.',
  /** A task whose work failed for a reason that is not the tool's own error. */
  failed: (reason: string) => `The task failed: ${reason}`,
  /** A task whose server went away while it ran (its lease lapsed); `continueFrom`: the crawl's id, if it has one. */
  ownerLost: (continueFrom: string | undefined) =>
    'The task failed: the server running it went away before it ended. ' +
    (continueFrom === undefined
      ? 'Call the tool again.'
      : `Nothing read is lost: call crawl with continue_from="${continueFrom}" to read on from its last page.`),
};
