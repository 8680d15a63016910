// Mantine's base styles; each component's own stylesheet comes with it (vite.config.ts). All in @layer mantine,
// so the app's CSS modules win over them whatever order the chunks load in.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';

// The first render as a transition: React renders it in slices that yield to the browser instead of one long task,
// so a slow phone stays responsive while the page builds (Lighthouse's total blocking time). Nothing else changes.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  ),
);
