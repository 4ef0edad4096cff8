/** GitHub's naming rules for accounts and repositories, checked before a name reaches a path. */

/** A GitHub account login: 1-39 letters, digits or -, not starting with -. */
export const OWNER_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
/** A repository name: letters, digits, `.`, `_`, `-`, at most 100; never `.` or `..`. */
export const REPO_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;
