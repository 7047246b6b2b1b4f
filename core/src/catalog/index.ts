/** The catalog: the payment methods the platform offers (how each asks the payer, which currencies it takes, when its FX rate locks) and the channels a payment can take. */
export * from './domain/catalog';
