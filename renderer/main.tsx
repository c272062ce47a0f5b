import 'react-dom/client';
import './styles.css';

/*
 * Two tasks rather than one: this chunk evaluates React alone, and the app's own modules
 * evaluate in a task of their own once their chunk is in, where the root is made (React's
 * event listeners) and the first render is asked for. Together they made the app's first task
 * its longest.
 */
void import('./start').then(({ start }) => start(document.getElementById('root')!));
