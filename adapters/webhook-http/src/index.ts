export { HttpWebhookSender, type HttpWebhookSenderOptions } from './http-webhook-sender';
export { EgressGuard, normalizeAddress } from './egress-guard';
