import { describe, expect, it } from 'vitest';
import { createImageStore } from './image-store.js';

const png = (size: number) => ({ bytes: new Uint8Array(size), mimeType: 'image/png' });

describe('the image store behind GET /screenshots/<name>', () => {
  it('serves a kept image under the name its link gives, until its time is up', () => {
    let now = 1_000;
    const store = createImageStore(() => 'http://127.0.0.1:3000', { ttlMs: 60_000, now: () => now });
    const link = store.keep(png(10))!;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3000\/screenshots\/[0-9a-f-]{36}\.png$/);
    const name = link.split('/').pop()!;
    expect(store.get(name)?.bytes.byteLength).toBe(10);
    now += 60_000;
    expect(store.get(name)).toBeUndefined();
    expect(store.keptMinutes).toBe(1);
  });

  it('drops the oldest images to stay within its bytes, and keeps none larger than all of them', () => {
    const store = createImageStore(() => '', { maxBytes: 100 });
    const first = store.keep(png(60))!.split('/').pop()!;
    const second = store.keep(png(30))!.split('/').pop()!;
    const third = store
      .keep({ bytes: new Uint8Array(40), mimeType: 'image/jpeg' })!
      .split('/')
      .pop()!;
    expect(third).toMatch(/\.jpg$/);
    expect(store.get(first)).toBeUndefined();
    expect(store.get(second)).toBeDefined();
    expect(store.get(third)).toBeDefined();
    expect(store.keep(png(101))).toBeUndefined();
  });

  it('answers nothing for a name it did not make', () => {
    const store = createImageStore(() => '');
    expect(store.get('../../etc/passwd')).toBeUndefined();
    expect(store.get('00000000-0000-0000-0000-000000000000.png')).toBeUndefined();
  });
});
