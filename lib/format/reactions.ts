/** GitHub's eight reactions and their emoji, in GitHub's order, for buttons and menus. */
export const GITHUB_REACTIONS = [
  ["+1", "👍"],
  ["-1", "👎"],
  ["laugh", "😄"],
  ["confused", "😕"],
  ["heart", "❤️"],
  ["hooray", "🎉"],
  ["rocket", "🚀"],
  ["eyes", "👀"],
] as const;
