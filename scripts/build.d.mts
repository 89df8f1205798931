/** Bundles `entry` (a path from the repository root) into `outfile`, as `npm start` runs it. */
export function bundle(entry: string, outfile: string): Promise<void>
