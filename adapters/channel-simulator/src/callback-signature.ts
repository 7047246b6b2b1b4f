import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'simulator-signature';
/** A callback older or newer than this is refused, so a captured one cannot be replayed later. */
export const TOLERANCE_SECONDS = 300;

export function sign(secret: Buffer, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** True when `header` carries a v1 HMAC of `body` under `secret` made within the tolerance of `nowSeconds`. */
export function verify(secret: Buffer, header: string | undefined, body: string, nowSeconds: number): boolean {
  if (header === undefined) return false;
  const fields = new Map(
    header.split(',').map((part): [string, string | undefined] => {
      const [name, value] = part.trim().split('=', 2);
      return [name, value];
    }),
  );
  const timestamp = Number(fields.get('t'));
  const given = fields.get('v1');
  if (!Number.isInteger(timestamp) || given === undefined || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
