/**
 * Reads a fetch answer's body as UTF-8 text, at most `maxBytes`: a remote party (a channel, a
 * payout provider) must not make us buffer an unbounded answer. Undefined when the body is larger;
 * the rest is not read.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const read = await reader.read();
    if (read.done) break;
    // fetch types a body's chunks `any`; they are bytes.
    const value: unknown = read.value;
    if (!(value instanceof Uint8Array)) throw new TypeError('A response body chunk is not bytes.');
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
