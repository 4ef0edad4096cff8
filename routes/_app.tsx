import { define } from "../lib/state.ts";

/**
 * The HTML document around every page. `/theme.js` runs before the body paints and sets the
 * `dark` class from the remembered choice or the system's colour scheme (a file, since the
 * Content-Security-Policy allows no inline script). Pages name themselves with `<Head><title>`.
 */
export default define.page(function App({ Component }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Switchyard</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <script src="/theme.js"></script>
      </head>
      <body class="min-h-screen bg-slate-50 text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <Component />
      </body>
    </html>
  );
});
