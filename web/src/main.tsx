import { render } from 'preact';
import { App } from './app/app';
import './styles.css';

render(<App />, document.getElementById('app')!);
