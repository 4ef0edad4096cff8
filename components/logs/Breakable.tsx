import { Fragment } from "preact";

/** A name with line-break opportunities after its `.`, `/` and `_`. */
export function breakable(text: string) {
  return text.split(/(?<=[./_])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
