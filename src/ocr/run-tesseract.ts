// One tesseract process: the image on stdin, the text on stdout (`tesseract stdin stdout`), so no temporary file is
// ever left behind. The process is asynchronous I/O for this thread (the event loop only moves bytes), killed with
// SIGKILL when the signal aborts, and the promise settles only once the process has exited: a call that ends never
// leaves a process running. Its output is capped, and one OCR runs on one core (OMP_THREAD_LIMIT=1): concurrency is
// the slots' job (ocr.ts), not tesseract's threads.
import { spawn } from 'node:child_process';

/** More text than a page could hold: a process that writes more is not reading a page. */
export const MAX_OCR_OUTPUT_BYTES = 1024 * 1024;

export interface TesseractOptions {
  /** `-l`: languages joined by '+', each a traineddata name (checked by config.ts). */
  readonly languages: string;
  readonly signal: AbortSignal;
  /** Told the child's pid as soon as it runs (tests check that it is gone afterwards). */
  readonly onSpawn?: (pid: number) => void;
}

/** Why a tesseract run failed, in its own words (stderr's last lines). */
export class TesseractFailure extends Error {}

export function runTesseract(executable: string, image: Uint8Array, options: TesseractOptions): Promise<string> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    // --psm 3: fully automatic page segmentation (tesseract's default, said so that a changed default changes nothing).
    const child = spawn(executable, ['stdin', 'stdout', '-l', options.languages, '--psm', '3'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', OMP_THREAD_LIMIT: '1' },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errText = '';
    let failure: unknown;
    const kill = (why: unknown) => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // Told after the listener is in place: an abort from inside onSpawn still kills the process.
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OCR_OUTPUT_BYTES) kill(new TesseractFailure('it wrote more text than a page holds'));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errText = (errText + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => {
      failure ??= error;
    });
    // EPIPE when tesseract exits before reading all of its input: its exit status says what happened.
    child.stdin.on('error', () => {});
    child.stdin.end(image);
    // 'close': the process has exited and its pipes are drained; only then is the call over.
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (failure !== undefined) return reject(failure);
      if (code !== 0) return reject(new TesseractFailure(failureReason(executable, options.languages, code, errText)));
      resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}

/** Why a run failed, naming the program; a missing language pack is named with the package that brings it. */
function failureReason(executable: string, languages: string, code: number | null, errText: string): string {
  const missing = /Failed loading language '([^']+)'/.exec(errText)?.[1];
  if (missing !== undefined)
    return (
      `${executable} has no data for the language '${missing}' (OCR_LANGUAGES=${languages}): install it with ` +
      `\`apt-get install tesseract-ocr-${missing.toLowerCase().replace(/_/g, '-')}\`, or leave it out of OCR_LANGUAGES`
    );
  const said = lastLines(errText);
  return `${executable} exited with status ${code}${said ? `: ${said}` : ''}`;
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-2).join(' ').slice(0, 300);
}
