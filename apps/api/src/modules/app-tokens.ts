import { token } from '@payments/core';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { ServiceMetrics } from '../metrics';
import type { Readiness } from '../readiness';

/** What the composition root provides besides core's ports. */
export const AppConfig = token<Config>('AppConfig');
export const AppLogger = token<Logger>('AppLogger');
/** The process's Prometheus series; served on PAYMENTS_METRICS_PORT by startApi / the worker. */
export const AppMetrics = token<ServiceMetrics>('AppMetrics');
/** `GET /health/ready`'s checks. */
export const AppReadiness = token<Readiness>('AppReadiness');
/** Webhook deliveries due now; the worker samples it into the backlog gauge. */
export const AppWebhookBacklog = token<() => Promise<number>>('AppWebhookBacklog');
/** The process's knex instance: for observers such as the bench's statement counter, not for use cases. */
export const AppKnex = token<Knex>('AppKnex');
