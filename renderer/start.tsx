import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { App } from './App';
import { startRouting } from './route';

export function start(root: Root): void {
  // Before the first render, so it already shows the screen the address names.
  startRouting();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
