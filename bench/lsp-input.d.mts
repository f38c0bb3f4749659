/** Types of lsp-input.mjs, for test/lsp/corpora.ts. */

/** A project file of `count` projects named `prefix-N`, N from `first` (default 1). */
export declare function projectsText(prefix?: string, count?: number, first?: number): string;

/** A template file: template `gotv` (en and es) sent by `count` instances. */
export declare function templatesText(count?: number): string;
