import { define } from "../lib/state.ts";

/** The HTML document around every page. */
export default define.page(function App({ Component }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Switchyard</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </head>
      <body class="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <Component />
      </body>
    </html>
  );
});
