import type Omise from 'omise';
import type { OmiseErrorObject, OmiseSearchResult } from '../src';

/**
 * The recorded shapes of Omise's answers this channel reads, typed against the `omise` SDK's own
 * declarations: each shape is a `Pick` of the SDK's type, so a field the SDK renames or retypes in
 * a later release stops these fixtures from compiling. Fields the channel never reads are left
 * out. The departures, each what Omise answers where the SDK says less: `failure_code`,
 * `authorize_uri` and `return_uri` may be null (a charge that did not fail; a charge with no
 * off-site step), a source may have no `scannable_code` (a redirect source), and the Search API's
 * envelope, which the SDK's declarations leave out, is the channel's own `OmiseSearchResult` over
 * the SDK's object types.
 */
export type TransactionShape = Pick<
  Omise.Transactions.ITransaction,
  'object' | 'id' | 'type' | 'amount' | 'currency' | 'direction' | 'key' | 'origin' | 'transferable_at' | 'created_at'
>;

export type SourceShape = Pick<Omise.Sources.ISource, 'object' | 'id' | 'type' | 'flow' | 'amount' | 'currency' | 'charge_status'> & {
  scannable_code:
    | (Pick<Omise.Sources.IScannableCode, 'object' | 'type'> & {
        image: Pick<Omise.Disputes.IDocument, 'object' | 'id' | 'filename' | 'download_uri'>;
      })
    | null;
};

export type ChargeShape = Pick<
  Omise.Charges.ICharge,
  'object' | 'id' | 'livemode' | 'location' | 'amount' | 'currency' | 'description' | 'status' | 'metadata' | 'expires_at' | 'created_at'
> & {
  failure_code: Omise.Charges.ICharge['failure_code'] | null;
  authorize_uri: Omise.Charges.ICharge['authorize_uri'] | null;
  return_uri: Omise.Charges.ICharge['return_uri'] | null;
  transaction: Extract<Omise.Charges.ICharge['transaction'], string> | null;
  source: SourceShape;
};

export type RefundShape = Pick<
  Omise.Charges.IRefundResponse,
  'object' | 'id' | 'location' | 'amount' | 'currency' | 'charge' | 'transaction' | 'voided' | 'metadata' | 'created_at'
>;

export type DisputeShape = Pick<Omise.Disputes.IResponse, 'object' | 'id' | 'amount' | 'currency' | 'status' | 'reason_code' | 'message' | 'created_at'> & {
  charge: Extract<Omise.Disputes.IResponse['charge'], string>;
};

export type ListShape<T> = Pick<Omise.Transactions.ITransactionList, 'object' | 'offset' | 'limit' | 'from' | 'to' | 'order' | 'total' | 'location'> & {
  data: T[];
};

export type SearchShape<T> = OmiseSearchResult<T>;

export type EventShape = Pick<Omise.Events.IEvent, 'object' | 'id' | 'livemode' | 'location' | 'key' | 'created_at'> & {
  data: ChargeShape | RefundShape | DisputeShape;
};

export type ErrorShape = OmiseErrorObject & { location: string; message: string };

export function errorBody(code: string): ErrorShape {
  return { object: 'error', location: `https://www.omise.co/api-errors#${code}`, code, message: `Recorded error (${code}).` };
}

export function promptPayCharge(id: string, amount: number, metadata: Record<string, string>, now: Date, expiresAt: string): ChargeShape {
  const sourceId = id.replace(/^chrg_/, 'src_');
  return {
    object: 'charge',
    id,
    livemode: false,
    location: `/charges/${id}`,
    amount,
    currency: 'THB',
    description: `Payment ${metadata['reference'] ?? ''}`,
    status: 'pending',
    metadata,
    expires_at: expiresAt,
    created_at: now.toISOString(),
    failure_code: null,
    authorize_uri: null,
    return_uri: null,
    transaction: null,
    source: {
      object: 'source',
      id: sourceId,
      type: 'promptpay',
      flow: 'offline',
      amount,
      currency: 'THB',
      charge_status: 'pending',
      scannable_code: {
        object: 'barcode',
        type: 'qr',
        image: {
          object: 'document',
          id: id.replace(/^chrg_/, 'docu_'),
          filename: 'qrcode.svg',
          download_uri: `https://api.omise.co/charges/${id}/documents/${id.replace(/^chrg_/, 'docu_')}/downloads/qr.svg`,
        },
      },
    },
  };
}

/** A TrueMoney app-redirection charge: the payer approves at `authorize_uri`, then Omise sends them to `return_uri`. */
export function trueMoneyCharge(id: string, amount: number, metadata: Record<string, string>, now: Date, expiresAt: string, returnUri: string): ChargeShape {
  const charge = promptPayCharge(id, amount, metadata, now, expiresAt);
  return {
    ...charge,
    authorize_uri: `https://pay.omise.co/offsites/${id.replace(/^chrg_/, 'ofsp_')}/pay`,
    return_uri: returnUri,
    source: { ...charge.source, type: 'truemoney_jumpapp', flow: 'app_redirect', scannable_code: null },
  };
}
