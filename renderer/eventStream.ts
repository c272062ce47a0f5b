/**
 * The browser host's event stream (Server-Sent Events) read with fetch, so the token travels in
 * the Authorization header as for every other call: EventSource cannot set headers, and a token
 * in the address would end up in a reverse proxy's access log. Like EventSource, it connects
 * again after a pause whenever the stream ends or fails, until `signal` is aborted or the
 * server refuses the token.
 */

export const RECONNECT_MS = 3000;

/** The `data:` payloads of the complete frames in `buffer`, and what is left of it. */
export function takeFrames(buffer: string): { data: string[]; rest: string } {
  const data: string[] = [];
  const frames = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = frames.pop() ?? '';
  for (const frame of frames) {
    const lines = frame
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (lines.length > 0) data.push(lines.join('\n'));
  }
  return { data, rest };
}

/** Whether to connect again: not when the token was refused, which asking again cannot change. */
async function readOnce(
  url: string,
  token: string,
  onData: (data: string) => void,
  signal: AbortSignal,
): Promise<boolean> {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
    cache: 'no-store',
    signal,
  });
  if (response.status === 401 || response.status === 403) return false;
  if (!response.ok || !response.body) return true;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    const { data, rest } = takeFrames(buffer + value);
    buffer = rest;
    for (const item of data) onData(item);
  }
}

export async function streamEvents(
  url: string,
  token: string,
  onData: (data: string) => void,
  signal: AbortSignal,
  reconnectMs = RECONNECT_MS,
): Promise<void> {
  while (!signal.aborted) {
    try {
      if (!(await readOnce(url, token, onData, signal))) return;
    } catch {
      // A dropped connection or a server going away: connect again after the pause.
    }
    if (signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, reconnectMs));
  }
}
