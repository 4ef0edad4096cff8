/** Build settings for the conventions layer: what the asset build reads. */
export default {
  /** The Tailwind CSS input (it names the folders whose classes it scans). */
  stylesheet: "components/styles.css",
  /** Files and folders whose changes make the built assets stale. */
  buildInputs: ["islands", "components", "routes", "lib", "fresh.config.ts", "deno.json"],
};
