/** This package's version (kept equal to package.json's by the pack test). */
export const VERSION = '0.1.0';
