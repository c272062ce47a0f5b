import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventHub } from '../core/events';
import { securityHeaders } from './responses';

/** A comment line now and then keeps idle proxies and browsers from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/** The open Server-Sent Events streams: every core event goes to each of them. */
export class EventStreams {
  private readonly streams = new Set<ServerResponse>();
  private readonly unsubscribe: () => void;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(events: EventHub) {
    this.unsubscribe = events.onAny((name, payload) => {
      this.write(`data: ${JSON.stringify({ name, payload })}\n\n`);
    });
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...securityHeaders,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // nginx would otherwise hold events back in its buffer (docs/lab-server.md).
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');
    this.streams.add(res);
    req.on('close', () => this.streams.delete(res));
  }

  close(): void {
    clearInterval(this.keepAlive);
    this.unsubscribe();
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  private write(frame: string): void {
    for (const stream of this.streams) stream.write(frame);
  }
}
