import { afterAll, describe, expect, it } from 'vitest';
import { importInspectEval } from '../../../electron/core/ingest/importers/inspect';
import {
  evalHeader,
  evalSample,
  evalZipEntries,
  PACKED_SAMPLE,
  packedSampleEntry,
  writeEvalLog,
  type ZipEntry,
} from '../../fixtures/inspect';
import { importContext, inspectScratch, threeSamples } from '../../fixtures/inspect-scratch';
import { zstdFrame } from '../../fixtures/zstd';

const scratch = inspectScratch('pairwise-inspect-zstd-');
const { file, writeZip, importEval } = scratch;
const ctx = importContext;

afterAll(scratch.cleanup);

describe('importInspectEval with zstd entries (Inspect 0.3.206 and later)', () => {
  const zstdEntries = (samples = threeSamples): ZipEntry[] =>
    evalZipEntries('finished', { samples }).map((entry) => ({ ...entry, method: 'zstd' }));

  it('reads a log whose every entry is zstd like the same log deflated', async () => {
    const fromZstd = await importEval(writeZip(zstdEntries()));
    const fromDeflate = await importEval(
      writeEvalLog(file(), 'finished', { samples: threeSamples }),
    );
    expect(fromZstd).toEqual(fromDeflate);
  });

  it('reads stored, deflate and zstd entries side by side, and real compressed frames', async () => {
    const methods = ['store', 'deflate', 'zstd'] as const;
    const entries = evalZipEntries('finished', { samples: threeSamples }).map((entry, i) => ({
      ...entry,
      method: methods[i % 3],
    }));
    const run = await importEval(writeZip([...entries, packedSampleEntry()]));
    expect(run.warnings).toEqual([]);
    expect(run.examples.map((e) => e.id)).toEqual(['1', '2', '3', PACKED_SAMPLE.id]);
    expect(run.examples[3]).toMatchObject({ output: PACKED_SAMPLE.output, fields: { match: 'C' } });
  });

  it('decodes a frame that asks for a window far larger than its entry', async () => {
    // 2 GiB: past what the decoder would allocate, so this fails unless the window is lowered.
    const header = Buffer.from(JSON.stringify(evalHeader()));
    const run = await importEval(
      writeZip([
        {
          name: 'header.json',
          data: header,
          method: 'zstd',
          packed: zstdFrame(header, { windowDescriptor: 0xa8 }),
        },
      ]),
    );
    expect(run.metrics['match/accuracy']).toBeCloseTo(2 / 3);
  });

  it('refuses zstd entries that expand beyond their declared size', async () => {
    const zeros = Buffer.alloc(1024 * 1024);
    const entries = zstdEntries();
    const lying = writeZip([
      ...entries,
      { name: 'samples/9_epoch_1.json', data: zeros, method: 'zstd', declaredSize: 100 },
    ]);
    await expect(importInspectEval(lying, ctx())).rejects.toThrow(
      /samples\/9_epoch_1\.json expands beyond the 100 bytes it declares/,
    );
    // A frame header that declares more content than the entry is refused before decoding.
    const declaring = writeZip([
      ...entries,
      {
        name: 'samples/9_epoch_1.json',
        data: zeros,
        method: 'zstd',
        declaredSize: 100,
        packed: zstdFrame(zeros, { contentSize: true }),
      },
    ]);
    await expect(importInspectEval(declaring, ctx())).rejects.toThrow(/beyond the 100 bytes/);
  });

  it('skips a sample whose zstd data is damaged or cut short', async () => {
    const sample = JSON.stringify(evalSample({ id: 4 }));
    const frame = zstdFrame(Buffer.from(sample));
    const run = await importEval(
      writeZip([
        ...zstdEntries(),
        { name: 'samples/4_epoch_1.json', data: sample, method: 'zstd', corrupt: true },
        {
          name: 'samples/5_epoch_1.json',
          data: sample,
          method: 'zstd',
          packed: frame.subarray(0, frame.length - 10),
        },
        {
          name: 'samples/6_epoch_1.json',
          data: sample,
          method: 'zstd',
          // A skippable frame's magic number with its length cut off.
          packed: Buffer.from([0x50, 0x2a, 0x4d, 0x18, 0x01]),
        },
      ]),
    );
    expect(run.examples.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(run.warnings).toContain(
      '3 sample(s) could not be read and were skipped (samples/4_epoch_1.json, samples/5_epoch_1.json, samples/6_epoch_1.json)',
    );
  });
});
