import { describe, expect, it } from 'vitest';
import {
  DEFLATE_FROM_BYTES,
  packTrace,
  unpackTrace,
} from '../../../electron/core/ingest/trace-pack';
import type { Trace } from '../../../shared/trace';

describe('stored transcripts', () => {
  it('round-trip small ones as they are and long ones deflated', () => {
    const small: Trace = [{ title: 'Messages', steps: [{ label: 'user', text: 'hi é 🙂' }] }];
    const long: Trace = [
      {
        title: 'Model calls',
        steps: Array.from({ length: 50 }, (_, i) => ({
          label: 'tool',
          text: `result ${i} `.repeat(40),
        })),
      },
    ];
    const packedSmall = packTrace(small);
    const packedLong = packTrace(long);
    expect(packedSmall[0]).toBe(0);
    expect(packedLong[0]).toBe(1);
    expect(packedLong.length).toBeLessThan(JSON.stringify(long).length / 3);
    expect(JSON.stringify(long).length).toBeGreaterThan(DEFLATE_FROM_BYTES);
    expect(unpackTrace(packedSmall)).toEqual(small);
    expect(unpackTrace(packedLong)).toEqual(long);
  });
});
