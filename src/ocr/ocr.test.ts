import { describe, expect, it } from 'vitest';
import { characterErrorRate, fixture, groundTruth, PAGE_NAMES } from '../../test/fixtures/ocr/ocr-set.mjs';
import { pngOfSize } from '../../test/fixtures/ocr/routes.js';
import { describeWithOcr } from '../../test/ocr-available.js';
import { createOcr, ImageTooLarge, OcrUnavailable, type OcrConfig } from './ocr.js';
import { TesseractFailure } from './run-tesseract.js';

const CONFIG: OcrConfig = {
  tesseractPath: undefined,
  ocrLanguages: 'eng',
  ocrConcurrency: 2,
  ocrMaxPixels: 50_000_000,
};
const never = () => new AbortController().signal;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // ESRCH: no such process
  }
}

describe('OCR bounds that need no tesseract', () => {
  it('refuses an image whose header announces more pixels than OCR_MAX_PIXELS, before any process starts', async () => {
    const spawned: number[] = [];
    const ocr = createOcr({ ...CONFIG, tesseractPath: '/bin/cat' });
    const bomb = pngOfSize(100_000, 100_000);
    const error = await ocr.recognize(bomb, { signal: never(), onSpawn: (pid) => spawned.push(pid) }).catch((e) => e);
    expect(error).toBeInstanceOf(ImageTooLarge);
    expect(error).toMatchObject({ size: { width: 100_000, height: 100_000 }, maxPixels: 50_000_000 });
    expect(spawned).toEqual([]);
  });

  it('refuses bytes whose size cannot be read from a header', async () => {
    const ocr = createOcr({ ...CONFIG, tesseractPath: '/bin/cat' });
    await expect(ocr.recognize(new Uint8Array(64), { signal: never() })).rejects.toBeInstanceOf(ImageTooLarge);
  });

  it('says there is no OCR when TESSERACT_PATH names no executable (and never falls back to PATH)', async () => {
    const ocr = createOcr({ ...CONFIG, tesseractPath: '/nonexistent/tesseract' });
    expect(ocr.isAvailable()).toBe(false);
    await expect(ocr.recognize(fixture('page-1', 'png'), { signal: never() })).rejects.toBeInstanceOf(OcrUnavailable);
  });

  it('a process that fails is a failure in its own words, not text (here /bin/false, which exits 1)', async () => {
    const ocr = createOcr({ ...CONFIG, tesseractPath: '/bin/false' });
    const error = await ocr.recognize(fixture('page-1', 'png'), { signal: never() }).catch((e) => e);
    expect(error).toBeInstanceOf(TesseractFailure);
    expect(error.message).toBe('/bin/false exited with status 1');
  });
});

describeWithOcr('OCR with tesseract', () => {
  it('a language whose data is not installed is named, with the package that brings it', async () => {
    const ocr = createOcr({ ...CONFIG, ocrLanguages: 'chi_sim_vert' });
    const error = await ocr.recognize(fixture('page-1', 'png'), { signal: never() }).catch((e) => e);
    expect(error).toBeInstanceOf(TesseractFailure);
    expect(error.message).toMatch(
      /^\S*tesseract has no data for the language 'chi_sim_vert' \(OCR_LANGUAGES=chi_sim_vert\): install it with `apt-get install tesseract-ocr-chi-sim-vert`, or leave it out of OCR_LANGUAGES$/,
    );
  });

  it.each(PAGE_NAMES)('reads %s as paragraphs with a character error rate under 5 %%', async (name) => {
    const ocr = createOcr(CONFIG);
    const text = await ocr.recognize(fixture(name, 'png'), { signal: never() });
    expect(characterErrorRate(groundTruth(name), text)).toBeLessThan(0.05);
    // Paragraphs, not one block of lines (tesseract may join two that sit close).
    expect(text.split('\n\n').length).toBeGreaterThan(1);
    expect(text).not.toMatch(/[^\n]\n[^\n]/);
  });

  it('kills the process when the deadline passes before the OCR ends, and leaves none behind', async () => {
    const ocr = createOcr(CONFIG);
    const deadline = new AbortController();
    const pids: number[] = [];
    const reading = ocr.recognize(fixture('page-2', 'png'), {
      signal: deadline.signal,
      // The deadline passes as soon as the process runs: always before a page's OCR ends.
      onSpawn: (pid) => {
        pids.push(pid);
        deadline.abort(new Error('deadline'));
      },
    });
    await expect(reading).rejects.toThrow('deadline');
    expect(pids).toHaveLength(1);
    expect(isRunning(pids[0]!)).toBe(false);
    expect(ocr.running).toBe(0);
  });

  it('runs at most OCR_CONCURRENCY processes at once; the others wait for a slot', async () => {
    const ocr = createOcr({ ...CONFIG, ocrConcurrency: 1 });
    const runningAtSpawn: number[] = [];
    const waitingAtSpawn: number[] = [];
    const onSpawn = () => {
      runningAtSpawn.push(ocr.running);
      waitingAtSpawn.push(ocr.waiting);
    };
    const image = fixture('page-3', 'jpg');
    const texts = await Promise.all([1, 2, 3].map(() => ocr.recognize(image, { signal: never(), onSpawn })));
    expect(runningAtSpawn).toEqual([1, 1, 1]);
    expect(waitingAtSpawn).toEqual([2, 1, 0]);
    expect(new Set(texts).size).toBe(1);
  });

  it('a call waiting for a slot leaves the line when its deadline passes, and no process starts for it', async () => {
    const ocr = createOcr({ ...CONFIG, ocrConcurrency: 1 });
    const spawned: number[] = [];
    const first = ocr.recognize(fixture('page-1', 'jpg'), { signal: never() });
    const late = new AbortController();
    const second = ocr.recognize(fixture('page-2', 'jpg'), {
      signal: late.signal,
      onSpawn: (pid) => spawned.push(pid),
    });
    expect(ocr.waiting).toBe(1);
    late.abort(new Error('deadline'));
    await expect(second).rejects.toThrow('deadline');
    await first;
    expect(spawned).toEqual([]);
  });
});
