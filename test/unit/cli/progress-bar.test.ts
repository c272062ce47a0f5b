import { describe, expect, it } from 'vitest';
import { progressBar } from '../../../electron/cli/progress-bar';
import { EventHub } from '../../../electron/core/events';
import { textSink } from '../../fixtures/sink';

describe('the CLI progress bar', () => {
  it('follows job progress by bytes when the pass knows them, else by items', () => {
    const events = new EventHub();
    const out = textSink();
    const stop = progressBar(events, { enabled: true, stream: out.stream, label: 'Indexing' });
    events.emit('job:progress', {
      jobId: 'j',
      progress: { phase: 'reading', done: 1, total: 4, bytes: 50e6, totalBytes: 200e6 },
    });
    stop();
    expect(out.text()).toMatch(/Indexing \[.*\] 25% · 50\/200 MB · reading/);

    const items = textSink();
    const stopItems = progressBar(events, {
      enabled: true,
      stream: items.stream,
      label: 'Comparing',
    });
    events.emit('job:progress', { jobId: 'k', progress: { phase: 'pairing', done: 3, total: 4 } });
    stopItems();
    expect(items.text()).toMatch(/Comparing \[.*\] 75% · 3\/4 · pairing/);
  });

  it('prints nothing when disabled (not a terminal, or --json)', () => {
    const events = new EventHub();
    const out = textSink();
    const stop = progressBar(events, { enabled: false, stream: out.stream, label: 'Indexing' });
    events.emit('job:progress', { jobId: 'j', progress: { phase: 'reading', done: 1, total: 2 } });
    stop();
    expect(out.text()).toBe('');
  });
});
