import { describe, expect, it } from 'vitest';
import { takeFrames } from '../../../renderer/eventStream';

describe('event stream frames', () => {
  it('takes complete frames, skips comments, and keeps a partial frame for later', () => {
    const first = takeFrames(': connected\n\ndata: {"a":1}\n\ndata: {"b"');
    expect(first).toEqual({ data: ['{"a":1}'], rest: 'data: {"b"' });
    const second = takeFrames(`${first.rest}:2}\r\n\r\n: keep-alive\n\n`);
    expect(second).toEqual({ data: ['{"b":2}'], rest: '' });
  });

  it('joins the data lines of one frame, with or without the space after the colon', () => {
    expect(takeFrames('data:one\ndata: two\n\n').data).toEqual(['one\ntwo']);
  });
});
