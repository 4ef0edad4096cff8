/**
 * A TCP proxy for fault tests: forwards 127.0.0.1:<port> to a target port until `cut()` drops
 * every connection and stops listening (the target looks unreachable); `restore()` listens on the
 * same port again.
 */

/** A running proxy. */
export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again on the same port. */
  restore(): void;
  /** Stops for good. */
  close(): void;
}

/** Starts a proxy to 127.0.0.1:`targetPort` on a free port. */
export function startTcpProxy(targetPort: number): TcpProxy {
  const open = new Set<Deno.Conn>();
  let listener: Deno.Listener | undefined;
  let port = 0;

  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      await from.readable.pipeTo(to.writable);
    } catch {
      // the other side went away
    }
    for (const conn of [from, to]) {
      try {
        conn.close();
      } catch {
        // already closed
      }
      open.delete(conn);
    }
  };

  const listen = () => {
    listener = Deno.listen({ hostname: "127.0.0.1", port });
    port = (listener.addr as Deno.NetAddr).port;
    const accepting = listener;
    (async () => {
      for await (const client of accepting) {
        try {
          const server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
          open.add(client).add(server);
          pipe(client, server);
          pipe(server, client);
        } catch {
          client.close();
        }
      }
    })().catch(() => {});
  };

  const cut = () => {
    listener?.close();
    listener = undefined;
    for (const conn of open) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
    open.clear();
  };

  listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: () => {
      if (!listener) listen();
    },
    close: cut,
  };
}
