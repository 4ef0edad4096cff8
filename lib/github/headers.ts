/** The headers every GitHub REST call carries (platforms notes §1.3). */
export const GITHUB_API_HEADERS: Readonly<Record<string, string>> = {
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
  "user-agent": "Switchyard",
};
