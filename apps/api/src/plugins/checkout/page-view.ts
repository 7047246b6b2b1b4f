import { minorUnits, type CheckoutPage, type CheckoutState } from '@payments/core';
import QRCode from 'qrcode';
import { drawableImageOrigin } from '../../http/page-security';
import { LOCALES, STRINGS, type CheckoutStrings, type Language } from './strings';

/** What the page template reads: strings already chosen, amounts already formatted, the QR drawn. */
export interface CheckoutPageView {
  readonly lang: Language;
  readonly t: CheckoutStrings;
  readonly test: boolean;
  readonly merchantName: string;
  readonly merchantInitial: string;
  readonly amount: string;
  readonly description?: string;
  readonly merchantOrderId: string;
  /** `choose` (no pending attempt), `pay` (a credential to use), or a final or waiting state. */
  readonly step: 'choose' | 'pay' | 'processing' | 'succeeded' | 'canceled';
  readonly status: string;
  readonly failureReason?: string;
  readonly methods: readonly { value: string; label: string; hint: string; checked: boolean }[];
  readonly methodLabel?: string;
  readonly qrSvg?: string;
  /** A channel that answers its QR as an image to download (Omise): that image's address, when a page may draw from its origin. */
  readonly qrImageUrl?: string;
  readonly redirectUrl?: string;
  readonly returnUrl?: string;
  readonly expiresAt?: string;
  readonly countdown?: string;
}

/** `amount` minor units of `currency`, in the payer's locale, with ISO 4217's minor digits (not CLDR's). */
export function formatAmount(amount: number, currency: string, lang: Language): string {
  const digits = minorUnits(currency);
  return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    amount / 10 ** digits,
  );
}

/** `h:mm:ss` or `m:ss` until `expiresAt` (never negative): what the page shows before its script runs. */
export function formatCountdown(expiresAt: Date, now: Date): string {
  const total = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The QR code as inline SVG, drawn on the server so the page needs no library of its own. */
export function qrSvg(data: string): Promise<string> {
  return QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
}

function stepOf(state: CheckoutState): CheckoutPageView['step'] {
  switch (state.status) {
    case 'requires_payment':
      return state.nextAction ? 'pay' : 'choose';
    case 'processing':
      return 'processing';
    case 'succeeded':
    case 'channel_settled':
      return 'succeeded';
    case 'canceled':
    case 'expired':
      return 'canceled';
    default:
      return 'choose';
  }
}

export async function checkoutPageView(page: CheckoutPage, lang: Language, now: Date): Promise<CheckoutPageView> {
  const t = STRINGS[lang];
  const { state } = page;
  const step = stepOf(state);
  const selected = page.methods.some((entry) => entry.method === state.paymentMethod) ? state.paymentMethod : page.methods[0]?.method;
  const action = step === 'pay' ? state.nextAction : undefined;
  return {
    lang,
    t,
    test: page.mode === 'test',
    merchantName: page.merchantName,
    merchantInitial: [...page.merchantName.trim()][0]?.toUpperCase() ?? '·',
    amount: formatAmount(page.amount, page.currency, lang),
    description: page.description,
    merchantOrderId: page.merchantOrderId,
    step,
    status: state.status,
    failureReason: state.status === 'failed' ? (t.failureReasons[state.failureCode ?? 'channel_error'] ?? t.failureReasons.channel_error) : undefined,
    methods: page.methods.map((entry) => ({
      value: entry.method,
      label: t.methods[entry.method] ?? entry.method,
      hint: entry.nextAction === 'qr_code' ? t.hintQr : t.hintRedirect,
      checked: entry.method === selected,
    })),
    methodLabel: state.paymentMethod === undefined ? undefined : (t.methods[state.paymentMethod] ?? state.paymentMethod),
    qrSvg: action?.type === 'qr_code' && action.qrData ? await qrSvg(action.qrData) : undefined,
    qrImageUrl: action?.type === 'qr_code' && !action.qrData && drawableImageOrigin(action.url) !== undefined ? action.url : undefined,
    redirectUrl: action?.type === 'redirect' ? action.url : undefined,
    returnUrl: state.redirectUrl,
    expiresAt: step === 'succeeded' || step === 'canceled' ? undefined : state.expiresAt?.toISOString(),
    countdown: state.expiresAt && step !== 'succeeded' && step !== 'canceled' ? formatCountdown(state.expiresAt, now) : undefined,
  };
}
