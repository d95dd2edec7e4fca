// npm run dev: the server with reload on change, and Vite's dev server (port 5173) proxying API calls to it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './build-if-needed.mjs';

const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' };
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/src/main.ts'], { cwd: root, stdio: 'inherit', env }),
  spawn(bin('vite'), ['--port', '5173'], { cwd: path.join(root, 'web'), stdio: 'inherit', env }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
