/** Versions the service can render, oldest first; the last is the current one. */
export const API_VERSIONS: readonly string[] = ['2026-09-01'];
export const CURRENT_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1];
export const API_VERSION_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

export function isRenderedVersion(version: string): boolean {
  return API_VERSIONS.includes(version);
}
