/** Types of scripts/build-lock.mjs (see there). */
export declare const BUILD_LOCK: string;
export declare function withBuildLock<T>(root: string, body: () => T): T;
