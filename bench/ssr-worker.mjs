// Worker threads do not inherit --import hooks on Node 20: register the TypeScript loader, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./ssr-worker.ts');
