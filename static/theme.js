// Sets the colour scheme before the page paints (loaded as a blocking script in <head>):
// the choice remembered in this browser ("light" or "dark"), else the system's, which is then
// followed while the page is open. The console's theme toggle writes the same storage key.
(() => {
  const KEY = "switchyard-theme";
  const system = matchMedia("(prefers-color-scheme: dark)");
  const remembered = () => {
    try {
      return localStorage.getItem(KEY);
    } catch {
      return null;
    }
  };
  const apply = () => {
    const choice = remembered();
    const dark = choice === "dark" || (choice !== "light" && system.matches);
    document.documentElement.classList.toggle("dark", dark);
  };
  apply();
  system.addEventListener("change", apply);
})();
