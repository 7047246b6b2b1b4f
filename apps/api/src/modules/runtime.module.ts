import {
  Clock,
  Digest,
  Ed25519KeyCheck,
  EmailSender,
  OneTimeCodes,
  OperatorAlerts,
  PasswordHasher,
  RandomSource,
  ReconciliationAlerts,
  SecretBox,
  WebhookCrypto,
  WebhookSender,
} from '@payments/core';
import {
  AesGcmSecretBox,
  CryptoDigest,
  CryptoEd25519KeyCheck,
  CryptoRandomSource,
  CryptoWebhookCrypto,
  ScryptPasswordHasher,
  SystemClock,
} from '@payments/node-runtime';
import { OtplibOneTimeCodes } from '@payments/otp';
import { HttpWebhookSender } from '@payments/webhook-http';
import { ContainerModule } from 'inversify';
import type { Config } from '../config';
import { LogEmailSender } from '../log-email-sender';
import { LogOperatorAlerts } from '../log-operator-alerts';
import { LogReconciliationAlerts } from '../log-reconciliation-alerts';
import type { Logger } from '../logger';
import type { ServiceMetrics } from '../metrics';
import type { ContainerOverrides } from './overrides';
import { bindValue } from './wiring';

/** Node's runtime: time, randomness, hashing, sealing, one-time codes, and what goes out (email, alerts, webhooks). */
export const runtimeModule = (config: Config, logger: Logger, metrics: ServiceMetrics, overrides: ContainerOverrides): ContainerModule =>
  new ContainerModule((options) => {
    bindValue(options, Clock, overrides.clock ?? new SystemClock());
    bindValue(options, RandomSource, new CryptoRandomSource());
    bindValue(options, Digest, new CryptoDigest());
    bindValue(options, PasswordHasher, overrides.passwordHasher ?? new ScryptPasswordHasher());
    bindValue(options, SecretBox, new AesGcmSecretBox(config.masterKey));
    bindValue(options, OneTimeCodes, new OtplibOneTimeCodes());
    bindValue(options, WebhookCrypto, new CryptoWebhookCrypto());
    bindValue(options, Ed25519KeyCheck, new CryptoEd25519KeyCheck());
    bindValue(options, EmailSender, new LogEmailSender(logger));
    bindValue(options, OperatorAlerts, new LogOperatorAlerts(logger, metrics));
    bindValue(options, ReconciliationAlerts, new LogReconciliationAlerts(logger, metrics));
    bindValue(
      options,
      WebhookSender,
      overrides.webhookSender ?? new HttpWebhookSender({ egressAllow: config.egressAllow, dnsOverrides: config.dnsOverrides, logger }),
    );
  });
