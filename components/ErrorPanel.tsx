import { Head } from "../lib/fresh/runtime.ts";

/** A centered error message with a way back to the console. */
export function ErrorPanel(props: { status: number; title: string; detail?: string }) {
  return (
    <main class="mx-4 mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-6 sm:mx-auto sm:p-8 dark:border-slate-800 dark:bg-slate-900 text-center shadow-sm">
      <Head>
        <title>{`${props.title} · Switchyard`}</title>
      </Head>
      <p class="text-sm font-semibold text-slate-500 dark:text-slate-400">{props.status}</p>
      <h1 class="mt-2 text-xl font-semibold">{props.title}</h1>
      {props.detail && <p class="mt-2 text-slate-600 dark:text-slate-400">{props.detail}</p>}
      <a
        class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-300"
        href="/admin"
      >
        Back to the console
      </a>
    </main>
  );
}
