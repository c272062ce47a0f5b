import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startRouting } from './route';

export async function start(container: HTMLElement): Promise<void> {
  const root = createRoot(container);
  // Before the first render, so it already shows the screen the address names.
  await startRouting();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
