import '@blueprintjs/core/lib/css/blueprint.css';
import './console.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Provider } from 'jotai';
import { FocusStyleManager } from '@blueprintjs/core';
import { routes } from './routes';
import { store } from './state';
import { translateBlueprintLabels } from './common/blueprintTexts';
import { keepOutline } from './shell/outline';

// focus rings for the keyboard only: a clicked tab or menu entry keeps no blue box (issue 20 item 10)
FocusStyleManager.onlyShowFocusOnTabs();
translateBlueprintLabels();
// one h1 per page, its title, and headings in order, at whatever size a page draws them (issue 24)
keepOutline();

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
