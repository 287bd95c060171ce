import { render } from 'preact';
import { api } from './api/client';
import { App } from './app/app';
import { readCache } from './api/cache';
import { registerServiceWorker } from './offline/install';
import './styles.css';

api.use(readCache);
registerServiceWorker();
render(<App />, document.getElementById('app')!);
