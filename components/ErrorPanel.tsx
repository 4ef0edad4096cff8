/** A centered error message with a way back to the console. */
export function ErrorPanel(props: { status: number; title: string; detail?: string }) {
  return (
    <main class="mx-auto mt-24 max-w-md rounded-lg border border-slate-200 bg-white p-8 text-center shadow-sm">
      <p class="text-sm font-semibold text-slate-500">{props.status}</p>
      <h1 class="mt-2 text-xl font-semibold">{props.title}</h1>
      {props.detail && <p class="mt-2 text-slate-600">{props.detail}</p>}
      <a
        class="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline"
        href="/admin"
      >
        Back to the console
      </a>
    </main>
  );
}
