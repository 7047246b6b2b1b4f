/**
 * The page's words in each language it speaks. English is the fallback, so every catalogue has
 * every key (the type makes a missing Thai string a compile error, not a blank on a payer's phone).
 */
export const LANGUAGES = ['en', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface CheckoutStrings {
  readonly title: string;
  readonly payTo: string;
  readonly amountLabel: string;
  readonly orderLabel: string;
  readonly expiresIn: string;
  readonly chooseMethod: string;
  readonly continueButton: string;
  readonly hintQr: string;
  readonly hintRedirect: string;
  readonly scanTitle: string;
  readonly scanSteps: readonly string[];
  readonly qrLabel: string;
  readonly redirectTitle: string;
  readonly redirectButton: string;
  readonly redirectNote: string;
  readonly waiting: string;
  readonly processing: string;
  readonly succeededTitle: string;
  readonly succeededBody: string;
  readonly returning: string;
  readonly returnLink: string;
  readonly failedTitle: string;
  readonly failedRetry: string;
  readonly failureReasons: Readonly<Record<string, string>>;
  readonly canceledTitle: string;
  readonly canceledBody: string;
  readonly expiredTitle: string;
  readonly expiredBody: string;
  readonly notFoundTitle: string;
  readonly notFoundBody: string;
  readonly busyTitle: string;
  readonly busyBody: string;
  readonly testBanner: string;
  readonly testToolsTitle: string;
  readonly testToolsBody: string;
  readonly simulateSuccess: string;
  readonly simulateFailure: string;
  readonly errorGeneric: string;
  readonly errorRateLimited: string;
  readonly errorLiveClosed: string;
  readonly noScript: string;
  readonly secureFooter: string;
  readonly walletTitle: string;
  readonly walletBody: string;
  readonly walletBack: string;
  readonly methods: Readonly<Record<string, string>>;
}

const METHOD_NAMES = {
  promptpay: 'PromptPay',
  paynow: 'PayNow',
  duitnow: 'DuitNow',
  qris: 'QRIS',
  gcash: 'GCash',
  truemoney: 'TrueMoney Wallet',
  alipay_plus: 'Alipay+',
} as const;

const en: CheckoutStrings = {
  title: 'Checkout',
  payTo: 'Pay to',
  amountLabel: 'Amount to pay',
  orderLabel: 'Order',
  expiresIn: 'This payment link expires in',
  chooseMethod: 'Choose how to pay',
  continueButton: 'Continue',
  hintQr: 'Scan a QR code with your banking app',
  hintRedirect: 'Pay in the wallet app',
  scanTitle: 'Scan to pay',
  scanSteps: ['Open your banking or wallet app.', 'Scan this QR code.', 'Check the amount and confirm.'],
  qrLabel: 'QR code to pay with',
  redirectTitle: 'Continue in your wallet',
  redirectButton: 'Open',
  redirectNote: 'You will confirm the payment in the wallet, then come back here.',
  waiting: 'Waiting for your payment. This page updates by itself.',
  processing: 'Your payment is being confirmed. This takes a moment.',
  succeededTitle: 'Payment received',
  succeededBody: 'Thank you. Your payment was successful.',
  returning: 'Taking you back to the shop…',
  returnLink: 'Return to',
  failedTitle: "Your payment didn't go through",
  failedRetry: 'No money was taken. You can try again, with the same method or another one.',
  failureReasons: {
    insufficient_funds: 'The account did not have enough funds.',
    payer_cancelled: 'The payment was cancelled in the app.',
    risk_blocked: 'Your bank or wallet declined the payment.',
    expired: 'The payment code expired before it was used.',
    channel_error: 'The payment provider could not take the payment.',
  },
  canceledTitle: 'Payment canceled',
  canceledBody: 'The shop canceled this payment. Nothing was charged.',
  expiredTitle: 'This payment link has expired',
  expiredBody: 'Nothing was charged. Please go back to the shop and start the payment again.',
  notFoundTitle: 'Payment link not found',
  notFoundBody: 'Check that you opened the whole link, or go back to the shop and start the payment again.',
  busyTitle: 'Too many requests',
  busyBody: 'This payment page was loaded too often in a short time. Wait a few seconds, then reload it. Nothing was charged.',
  testBanner: 'Test mode: no real money moves.',
  testToolsTitle: 'Test tools',
  testToolsBody: 'Pretend to be the payer and choose what the payment channel reports.',
  simulateSuccess: 'Simulate success',
  simulateFailure: 'Simulate failure',
  errorGeneric: 'Something went wrong. Please try again.',
  errorRateLimited: 'Too many tries in a short time. Please wait a moment and try again.',
  errorLiveClosed: 'This shop cannot take payments right now. Nothing was charged.',
  noScript: 'This page needs JavaScript to start the payment and follow its progress.',
  secureFooter: 'Secure payment page. We never ask for your password or PIN.',
  walletTitle: 'Simulated wallet',
  walletBody:
    'In test mode this page stands in for the wallet app. Nothing is paid here: go back to the checkout page and press "Simulate success" or "Simulate failure".',
  walletBack: 'Back to checkout',
  methods: METHOD_NAMES,
};

const th: CheckoutStrings = {
  title: 'ชำระเงิน',
  payTo: 'ชำระเงินให้',
  amountLabel: 'ยอดที่ต้องชำระ',
  orderLabel: 'คำสั่งซื้อ',
  expiresIn: 'ลิงก์ชำระเงินนี้จะหมดอายุใน',
  chooseMethod: 'เลือกวิธีชำระเงิน',
  continueButton: 'ดำเนินการต่อ',
  hintQr: 'สแกนคิวอาร์โค้ดด้วยแอปธนาคาร',
  hintRedirect: 'ชำระเงินในแอปวอลเล็ต',
  scanTitle: 'สแกนเพื่อชำระเงิน',
  scanSteps: ['เปิดแอปธนาคารหรือแอปวอลเล็ต', 'สแกนคิวอาร์โค้ดนี้', 'ตรวจสอบยอดเงินแล้วยืนยัน'],
  qrLabel: 'คิวอาร์โค้ดสำหรับชำระเงินด้วย',
  redirectTitle: 'ดำเนินการต่อในวอลเล็ต',
  redirectButton: 'เปิด',
  redirectNote: 'ยืนยันการชำระเงินในวอลเล็ต แล้วกลับมาที่หน้านี้',
  waiting: 'กำลังรอการชำระเงิน หน้านี้จะอัปเดตเอง',
  processing: 'กำลังยืนยันการชำระเงิน โปรดรอสักครู่',
  succeededTitle: 'ได้รับการชำระเงินแล้ว',
  succeededBody: 'ขอบคุณ การชำระเงินของคุณสำเร็จแล้ว',
  returning: 'กำลังพาคุณกลับไปที่ร้านค้า…',
  returnLink: 'กลับไปที่',
  failedTitle: 'การชำระเงินไม่สำเร็จ',
  failedRetry: 'ไม่มีการตัดเงิน คุณลองอีกครั้งได้ ด้วยวิธีเดิมหรือวิธีอื่น',
  failureReasons: {
    insufficient_funds: 'ยอดเงินในบัญชีไม่เพียงพอ',
    payer_cancelled: 'การชำระเงินถูกยกเลิกในแอป',
    risk_blocked: 'ธนาคารหรือวอลเล็ตของคุณปฏิเสธการชำระเงิน',
    expired: 'รหัสชำระเงินหมดอายุก่อนถูกใช้งาน',
    channel_error: 'ผู้ให้บริการชำระเงินไม่สามารถรับการชำระเงินได้',
  },
  canceledTitle: 'ยกเลิกการชำระเงินแล้ว',
  canceledBody: 'ร้านค้ายกเลิกการชำระเงินนี้ ไม่มีการตัดเงิน',
  expiredTitle: 'ลิงก์ชำระเงินนี้หมดอายุแล้ว',
  expiredBody: 'ไม่มีการตัดเงิน โปรดกลับไปที่ร้านค้าแล้วเริ่มชำระเงินใหม่',
  notFoundTitle: 'ไม่พบลิงก์ชำระเงิน',
  notFoundBody: 'ตรวจสอบว่าเปิดลิงก์ครบทั้งหมด หรือกลับไปที่ร้านค้าแล้วเริ่มชำระเงินใหม่',
  busyTitle: 'มีการเรียกหน้านี้บ่อยเกินไป',
  busyBody: 'หน้าชำระเงินนี้ถูกโหลดบ่อยเกินไปในเวลาสั้น ๆ โปรดรอสักครู่แล้วโหลดใหม่ ไม่มีการตัดเงิน',
  testBanner: 'โหมดทดสอบ: ไม่มีการโอนเงินจริง',
  testToolsTitle: 'เครื่องมือทดสอบ',
  testToolsBody: 'จำลองเป็นผู้ชำระเงิน แล้วเลือกผลที่ช่องทางชำระเงินจะรายงาน',
  simulateSuccess: 'จำลองว่าสำเร็จ',
  simulateFailure: 'จำลองว่าไม่สำเร็จ',
  errorGeneric: 'เกิดข้อผิดพลาด โปรดลองอีกครั้ง',
  errorRateLimited: 'ลองบ่อยเกินไปในเวลาสั้น ๆ โปรดรอสักครู่แล้วลองอีกครั้ง',
  errorLiveClosed: 'ร้านค้านี้ยังรับชำระเงินไม่ได้ในขณะนี้ ไม่มีการตัดเงิน',
  noScript: 'หน้านี้ต้องใช้ JavaScript เพื่อเริ่มและติดตามการชำระเงิน',
  secureFooter: 'หน้าชำระเงินที่ปลอดภัย เราไม่เคยขอรหัสผ่านหรือรหัส PIN ของคุณ',
  walletTitle: 'วอลเล็ตจำลอง',
  walletBody: 'ในโหมดทดสอบ หน้านี้ใช้แทนแอปวอลเล็ต ไม่มีการชำระเงินที่นี่ โปรดกลับไปที่หน้าชำระเงินแล้วกด "จำลองว่าสำเร็จ" หรือ "จำลองว่าไม่สำเร็จ"',
  walletBack: 'กลับไปหน้าชำระเงิน',
  methods: METHOD_NAMES,
};

export const STRINGS: Readonly<Record<Language, CheckoutStrings>> = { en, th };

/** The BCP 47 locale `Intl` formats amounts with for each language. */
export const LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', th: 'th-TH' };
