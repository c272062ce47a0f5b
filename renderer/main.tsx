import { createRoot } from 'react-dom/client';
import './styles.css';

/*
 * Two tasks rather than one: this chunk evaluates React alone, and the app's own modules
 * evaluate in a task of their own once their chunk is in. Together they made the app's first
 * task its longest.
 */
const root = createRoot(document.getElementById('root')!);
void import('./start').then(({ start }) => start(root));
