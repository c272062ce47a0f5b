import { contextBridge, ipcRenderer, webUtils } from 'electron';

/**
 * The whole surface the page gets: send a contract request, subscribe to contract events, and
 * two desktop-only helpers (a dropped file's path, the native folder picker). No Node, no
 * ipcRenderer, nothing else crosses the bridge.
 */
contextBridge.exposeInMainWorld('pairwise', {
  request: (name: string, input: unknown) => ipcRenderer.invoke('pairwise:request', name, input),
  subscribe: (event: string, handler: (payload: unknown) => void) => {
    const listener = (_: unknown, name: string, payload: unknown) => {
      if (name === event) handler(payload);
    };
    ipcRenderer.on('pairwise:event', listener);
    return () => ipcRenderer.removeListener('pairwise:event', listener);
  },
  pathForFile: (file: File) => webUtils.getPathForFile(file),
  pickFolder: () => ipcRenderer.invoke('pairwise:pickFolder') as Promise<string | null>,
});
