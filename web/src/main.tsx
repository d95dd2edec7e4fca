/** Console entry: the user from the cookie, the socket, client-error reporting, then the app. */
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { captureClientErrors } from './lib/client-errors';
import { refreshUser } from './lib/session';
import { socket } from './lib/socket';

const MAX_STACK = 16_000;

refreshUser();
socket.connect();
captureClientErrors((stack) => socket.send(['clientError', stack.slice(0, MAX_STACK)]), import.meta.env.DEV);
window.addEventListener('beforeunload', () => socket.send(['beforeunload', null]));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(<App />);
