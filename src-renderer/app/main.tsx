// Styles first: Pico for the elements, then our layout on top. (xterm's sheet lives in each terminal's shadow
// root: screenRoot.ts.)
import '@picocss/pico/css/pico.min.css';
import './app.css';
import '../ui/ui.css';
import './layout.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Connection } from '../bridge/connection';
import { accessToken } from '../bridge/token';
import { App } from './App';

// Read (and hide) the token before anything else can look at or log the URL.
accessToken();

// One connection for the page's lifetime; the browser closes its socket when the page goes away.
new Connection().start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
