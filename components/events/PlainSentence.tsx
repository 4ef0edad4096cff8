/**
 * A sentence of an explanation: the parts between backticks (paths, values, event names) shown
 * as code, the rest as text.
 */
export function PlainSentence(props: { text: string }) {
  const parts = props.text.split("`");
  // An odd count of backticks leaves the last part unpaired: it is shown as text.
  const paired = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 && index < paired
          ? (
            <code
              key={index}
              class="break-all rounded bg-black/5 px-1 font-mono text-[0.9em] dark:bg-white/10"
            >
              {part}
            </code>
          )
          : index % 2 === 1
          ? `\`${part}`
          : part
      )}
    </>
  );
}
