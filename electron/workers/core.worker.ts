import { parentPort, workerData } from 'node:worker_threads';
import { dispatch } from '../core/dispatch';
import { setWorkerDir } from '../core/jobs/worker-path';
import { PairwiseService, type ServiceOptions } from '../core/service';
import { PortSecretStore, type SecretReply } from './port-secrets';

/**
 * The desktop app's core runs here, off Electron's main thread: main forwards validated-sender
 * requests as messages and relays the events this thread posts back. Secrets stay in main.
 */
interface CoreWorkerData {
  options: ServiceOptions;
  workerDir: string;
}

type Incoming =
  { type: 'request'; id: number; name: unknown; input: unknown } | { type: 'close' } | SecretReply;

const port = parentPort!;
const data = workerData as CoreWorkerData;
setWorkerDir(data.workerDir);
const secrets = new PortSecretStore(port);
const service = new PairwiseService({ ...data.options, secrets });
service.events.onAny((name, payload) => port.postMessage({ type: 'event', name, payload }));

port.on('message', (message: Incoming) => {
  if (message.type === 'secret:reply') {
    secrets.handle(message);
    return;
  }
  if (message.type === 'close') {
    void service.close().then(() => port.postMessage({ type: 'closed' }));
    return;
  }
  void dispatch(service, message.name, message.input).then((result) =>
    port.postMessage({ type: 'response', id: message.id, result }),
  );
});
