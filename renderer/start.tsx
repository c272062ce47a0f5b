import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { App } from './App';
import { startRouting } from './route';

export async function start(root: Root): Promise<void> {
  // Before the first render, so it already shows the screen the address names.
  await startRouting();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
